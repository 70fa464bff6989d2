// Command-line parsing: Xmipp spellings, multi-value options, clear usage errors.
#include "frost/cli/json.hpp"
#include "frost/cli/params.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost::cli {
namespace {

Params declared() {
  Params p;
  p.text_required("-i", "input");
  p.text("-o", "out.mrc", "output");
  p.reals("--padding", {2.0, 2.0}, "padding factors");
  p.integer("--box", 64, "box").range(8, 1024);
  p.real("--sampling", 1.0, "pixel size").alias("--sampling_rate");
  p.real("--shift", 0.0, "shift");
  p.choice("--mode", "fast", {"fast", "precise"}, "mode");
  p.flag("--skipLocalAlignment", "skip local alignment");
  p.integers("--frames", {}, "open list");
  return p;
}


TEST(Params, ParsesTypedValuesAliasesAndDefaults) {
  Params p = declared();
  p.parse({"-i", "in.xmd", "--sampling_rate", "1.35", "--padding", "3", "2.5", "--skipLocalAlignment",
           "--shift", "-2.5", "--mode=precise", "--frames", "1", "2", "3"});
  EXPECT_EQ(p.get_text("-i"), "in.xmd");
  EXPECT_EQ(p.get_text("-o"), "out.mrc");
  EXPECT_DOUBLE_EQ(p.get_real("--sampling"), 1.35);
  EXPECT_EQ(p.get_reals("--padding"), (std::vector<double>{3.0, 2.5}));
  EXPECT_DOUBLE_EQ(p.get_real("--shift"), -2.5); // a negative number is a value, not an option
  EXPECT_EQ(p.get_text("--mode"), "precise");
  EXPECT_TRUE(p.flag_value("--skipLocalAlignment"));
  EXPECT_EQ(p.get_ints("--frames"), (std::vector<long long>{1, 2, 3}));
  EXPECT_EQ(p.get_int("--box"), 64);
  EXPECT_TRUE(p.given("--sampling"));
  EXPECT_FALSE(p.given("--box"));
}

TEST(Params, OneValueForATwoValueListRepeatsIt) {
  Params p = declared();
  p.parse({"-i", "x", "--padding", "1.5"});
  EXPECT_EQ(p.get_reals("--padding"), (std::vector<double>{1.5, 1.5}));
}

void check_usage_error(std::vector<std::string> args, const std::string& fragment) {
  Params p = declared();
  try {
    p.parse(args);
    FAIL() << "accepted: " << fragment;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Params, ClearUsageErrors) {
  check_usage_error({"-i", "x", "--bogus"}, "unknown option '--bogus'");
  check_usage_error({"-o", "y"}, "missing required option -i");
  check_usage_error({"-i", "x", "--box", "abc"}, "--box: expected an integer");
  check_usage_error({"-i", "x", "--box", "4"}, "must be at least 8");
  check_usage_error({"-i", "x", "--mode", "slow"}, "expected one of fast, precise");
  check_usage_error({"-i"}, "-i needs a value");
  check_usage_error({"-i", "x", "--padding", "1", "2", "3"}, "unexpected argument '3'");
  check_usage_error({"-i", "x", "stray"}, "unexpected argument 'stray'");
  check_usage_error({"-i", "x", "--skipLocalAlignment=1"}, "takes no value");
}

TEST(Params, UsageAndDescribeListEveryParameter) {
  Params p = declared();
  p.flag("--expert-knob", "hidden").advanced();
  const std::string u = p.usage("frost_x", "Does x.");
  EXPECT_NE(u.find("--sampling, --sampling_rate <real>"), std::string::npos) << u;
  EXPECT_NE(u.find("[default: 2 2]"), std::string::npos);
  EXPECT_EQ(u.find("--expert-knob"), std::string::npos);
  EXPECT_NE(p.usage("frost_x", "Does x.", true).find("--expert-knob"), std::string::npos);
  const std::string j = p.describe_json("frost_x", "Does x.");
  EXPECT_NE(j.find(R"("name":"--padding","aliases":[],"type":"reals","count":2)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("choices":["fast","precise"])"), std::string::npos);
  EXPECT_NE(p.help_of("sampling").find("pixel size"), std::string::npos);
}

TEST(Json, EscapesAndSeparates) {
  JsonWriter j;
  j.begin_object().key("a").value("q\"\n").key("b").begin_array().value(1).value(2.5).value(true).end_array().end_object();
  EXPECT_EQ(j.str(), R"({"a":"q\"\n","b":[1,2.5,true]})");
}

} // namespace
} // namespace frost::cli
