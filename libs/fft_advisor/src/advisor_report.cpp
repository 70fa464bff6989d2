#include "frost/fft/advisor_report.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "frost/core/version.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::fft {

namespace {

using ordered = nlohmann::ordered_json;

const char* prec_name(Precision p) { return p == Precision::F32 ? "f32" : "f64"; }
const char* place_name(Placement p) { return p == Placement::OutOfPlace ? "out" : "in"; }
const char* dir_name(Direction d) { return d == Direction::Forward ? "fwd" : "inv"; }
double mib(std::size_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); }

// Mega-elements of signal per second at the measured per-signal median.
double melem_per_s(const Candidate& c) {
  if (!c.measured || !c.measured->ok() || c.measured->median_ms_per_signal <= 0) return 0;
  return static_cast<double>(c.size.elements()) / (c.measured->median_ms_per_signal * 1e-3) / 1e6;
}

template <class T>
ordered list_json(const std::vector<T>& v, const char* (*name)(T)) {
  ordered a = ordered::array();
  for (const T& x : v) a.push_back(name(x));
  return a;
}

ordered measurement_json(const Candidate& c) {
  if (!c.measured || !c.measured->ok()) return nullptr;
  const Measurement& m = *c.measured;
  return ordered{{"median", m.median_ms_per_signal}, {"mean", m.mean_ms_per_signal}, {"min", m.min_ms_per_signal},
                 {"std", m.std_ms_per_signal}, {"n", m.samples}};
}

ordered candidate_json(const Candidate& c, int rank) {
  ordered primes = ordered::object();
  std::map<int, int> total;
  for (int d = 0; d < 3; ++d)
    for (auto [p, e] : factorize(c.size[d])) total[p] += e;
  for (auto [p, e] : total) primes[std::to_string(p)] = e;
  const bool measured = c.measured.has_value();
  const bool ok = measured && c.measured->ok();
  ordered j;
  j["rank"] = rank;
  j["size"] = {c.size.x, c.size.y, c.size.z};
  j["batch"] = c.batch;
  j["kind"] = to_string(c.kind);
  j["precision"] = prec_name(c.precision);
  j["placement"] = c.placement == Placement::OutOfPlace ? "out" : "in";
  j["direction"] = c.direction == Direction::Forward ? "forward" : "inverse";
  j["plan"] = c.batched ? "many" : "single";
  j["rotated"] = c.rotated;
  j["change_pct"] = c.change_pct;
  j["kernels_est"] = {c.kernels[0], c.kernels[1], c.kernels[2]};
  j["terms"] = c.terms;
  j["primes"] = primes;
  j["data_bytes"] = c.data_bytes;
  j["plan_bytes_estimate"] = c.plan_bytes_estimate;
  j["plan_bytes_actual"] = ok && c.measured->plan_bytes_actual ? ordered(c.measured->plan_bytes_actual) : ordered(nullptr);
  j["plan_ms"] = ok ? ordered(c.measured->plan_ms) : ordered(nullptr);
  j["ms_per_signal"] = measurement_json(c);
  j["ms_per_exec"] = ok ? ordered(c.measured->ms_per_exec) : ordered(nullptr);
  j["melem_per_s"] = ok ? ordered(melem_per_s(c)) : ordered(nullptr);
  j["speedup_vs_original"] = ok && c.speedup_vs_original > 0 ? ordered(c.speedup_vs_original) : ordered(nullptr);
  j["status"] = measured ? c.measured->status : "not measured";
  j["error"] = measured && !c.measured->error.empty() ? ordered(c.measured->error) : ordered(nullptr);
  return j;
}

} // namespace

std::string to_string(Resize r) { return r == Resize::Pad ? "pad" : r == Resize::Crop ? "crop" : "keep"; }
std::string to_string(Parity p) { return p == Parity::Any ? "any" : p == Parity::Even ? "even" : "odd"; }
std::string to_string(TieBreak t) { return t == TieBreak::Closest ? "closest" : "elements"; }

std::string format_json(const ReportContext& ctx, const std::vector<Candidate>& rows) {
  const AdvisorRequest& r = ctx.request;
  ordered j;
  j["schema"] = "frost.fft-advisor/1";
  j["tool"] = {{"name", "frost_fft_advisor"}, {"version", version_string()}};
  j["mode"] = ctx.mode;
  ordered backend;
  backend["kind"] = ctx.backend.kind;
  if (ctx.backend.kind == "cuda") {
    if (ctx.backend.modelled_only) {
      backend["device"] = nullptr;
    } else {
      backend["device"] = {{"ordinal", ctx.backend.ordinal}, {"name", ctx.backend.name}, {"uuid", ctx.backend.uuid},
                           {"cc", ctx.backend.cc},           {"sm_count", ctx.backend.sm_count},
                           {"total_mem_bytes", ctx.backend.total_mem_bytes}, {"l2_bytes", ctx.backend.l2_bytes}};
    }
    backend["driver"] = ctx.backend.driver ? ordered(ctx.backend.driver) : ordered(nullptr);
    backend["runtime"] = ctx.backend.runtime ? ordered(ctx.backend.runtime) : ordered(nullptr);
    backend["cufft"] = ctx.backend.cufft ? ordered(ctx.backend.cufft) : ordered(nullptr);
  } else {
    backend["cpu"] = ctx.backend.name;
    backend["threads"] = ctx.backend.threads;
    backend["fftw"] = ctx.backend.fftw;
  }
  j["backend"] = backend;
  j["profile"] = ctx.profile ? ordered{{"name", ctx.profile->name}, {"version", ctx.profile->version}} : ordered(nullptr);
  ordered req;
  req["size"] = {r.size.x, r.size.y, r.size.z};
  req["signals"] = r.signals;
  req["precision"] = list_json<Precision>(r.precisions, prec_name);
  ordered kinds = ordered::array();
  for (Kind k : r.kinds) kinds.push_back(to_string(k));
  req["kind"] = kinds;
  req["placement"] = list_json<Placement>(r.placements, place_name);
  ordered batched = ordered::array();
  for (bool b : r.batched) batched.push_back(b ? "yes" : "no");
  req["batched"] = batched;
  req["mode"] = to_string(r.resize);
  req["max_change_pct"] = r.max_change_pct ? ordered(*r.max_change_pct) : ordered(nullptr);
  req["optimize_dims"] = r.optimize_dims ? r.optimize_dims : r.size.rank();
  req["square_only"] = r.square_only;
  req["rotation"] = r.allow_rotation;
  req["transposition"] = r.allow_transposition;
  req["mem_limit_bytes"] = r.mem_limit_bytes ? ordered(*r.mem_limit_bytes) : ordered(nullptr);
  req["window"] = r.window > 0 ? r.window : std::max(10, r.count);
  req["tie_break"] = to_string(r.tie_break);
  j["request"] = req;
  if (ctx.protocol) {
    const Protocol& p = *ctx.protocol;
    j["protocol"] = {{"warmup", p.warmup}, {"reps", p.reps}, {"min_total_ms", p.min_total_ms},
                     {"cache_state", p.cold_cache ? "cold" : "warm"}, {"seed", p.seed}};
  } else {
    j["protocol"] = nullptr;
  }
  ordered cands = ordered::array();
  for (std::size_t i = 0; i < rows.size(); ++i) cands.push_back(candidate_json(rows[i], static_cast<int>(i + 1)));
  j["candidates"] = cands;
  if (ctx.original) {
    const Candidate& o = *ctx.original;
    ordered med = o.measured && o.measured->ok() ? ordered{{"median", o.measured->median_ms_per_signal}} : ordered(nullptr);
    j["original"] = {{"size", {o.size.x, o.size.y, o.size.z}}, {"ms_per_signal", med}};
  } else {
    j["original"] = nullptr;
  }
  j["selected"] = rows.empty() ? ordered(nullptr) : ordered(ctx.selected);
  j["budget_exhausted"] = ctx.budget_exhausted;
  j["source"] = ctx.source;
  return j.dump(2) + "\n";
}

std::string format_table(const ReportContext& ctx, const std::vector<Candidate>& rows) {
  std::string out;
  char line[512];
  const AdvisorRequest& r = ctx.request;
  out += "# frost_fft_advisor " + version_string() + " " + ctx.mode + "\n";
  char pct[32] = "unlimited";
  if (r.max_change_pct) std::snprintf(pct, sizeof pct, "%g%%", *r.max_change_pct);
  const std::string max_change = pct;
  if (ctx.backend.kind == "cuda") {
    if (ctx.backend.modelled_only)
      out += "# backend: cuda (model only, --no-device)\n";
    else
      out += "# backend: cuda device " + std::to_string(ctx.backend.ordinal) + " " + ctx.backend.name + " (cc " +
             ctx.backend.cc + "), driver " + std::to_string(ctx.backend.driver) + ", runtime " +
             std::to_string(ctx.backend.runtime) + ", cuFFT " + std::to_string(ctx.backend.cufft) + "\n";
  } else {
    out += "# backend: fftw " + ctx.backend.fftw + ", " + std::to_string(ctx.backend.threads) + " thread(s), " +
           ctx.backend.name + "\n";
  }
  if (ctx.profile) out += "# profile: " + ctx.profile->name + " (" + ctx.profile->version + ")\n";
  std::snprintf(line, sizeof line, "# request: %s x %lld signals, mode %s, max change %s, tie-break %s, source %s\n",
                to_string(r.size).c_str(), static_cast<long long>(r.signals), to_string(r.resize).c_str(),
                max_change.c_str(),
                to_string(r.tie_break).c_str(), ctx.source.c_str());
  out += line;
  if (ctx.original && ctx.original->measured && ctx.original->measured->ok()) {
    std::snprintf(line, sizeof line, "# original %s: %.5f ms/signal\n", to_string(ctx.original->size).c_str(),
                  ctx.original->measured->median_ms_per_signal);
    out += line;
  }
  if (ctx.budget_exhausted) out += "# budget exhausted: the best so far is shown\n";
  std::snprintf(line, sizeof line, "%-3s %-16s %5s %-4s %-4s %-5s %-4s %8s %3s %5s %9s %9s %8s %10s %9s %8s %9s %s\n", "#",
                "shape", "batch", "kind", "prec", "place", "dir", "change%", "k", "terms", "plan MiB", "data MiB",
                "plan ms", "ms/signal", "ms/exec", "speedup", "Melem/s", "status");
  out += line;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Candidate& c = rows[i];
    const bool ok = c.measured && c.measured->ok();
    auto num = [&](double v, const char* fmt) {
      char b[32];
      std::snprintf(b, sizeof b, fmt, v);
      return std::string(b);
    };
    const std::string shape = to_string(c.size) + (c.rotated ? "*" : "");
    const std::string status = !c.measured ? "" : c.measured->ok() ? "ok" : "error: " + c.measured->error;
    const std::string mark = ctx.mode != "recommend" && static_cast<int>(i) == ctx.selected && ok ? "  <- selected" : "";
    std::snprintf(line, sizeof line, "%-3zu %-16s %5lld %-4s %-4s %-5s %-4s %+8.2f %3d %5d %9.2f %9.2f %8s %10s %9s %8s %9s %s%s\n",
                  i + 1, shape.c_str(), static_cast<long long>(c.batch), to_string(c.kind).c_str(), prec_name(c.precision),
                  place_name(c.placement), dir_name(c.direction), c.change_pct, c.kernels_total, c.terms,
                  mib(ok && c.measured->plan_bytes_actual ? c.measured->plan_bytes_actual : c.plan_bytes_estimate),
                  mib(c.data_bytes), ok ? num(c.measured->plan_ms, "%.2f").c_str() : "",
                  ok ? num(c.measured->median_ms_per_signal, "%.5f").c_str() : "",
                  ok ? num(c.measured->ms_per_exec, "%.4f").c_str() : "",
                  ok && c.speedup_vs_original > 0 ? num(c.speedup_vs_original, "%.2fx").c_str() : "",
                  ok ? num(melem_per_s(c), "%.1f").c_str() : "", status.c_str(), mark.c_str());
    out += line;
  }
  return out;
}

std::string format_legacy(const std::vector<Candidate>& rows, bool measured) {
  std::string out = "rank|placeness|type|data|X|Y|Z|batch";
  if (measured)
    out += "|plan size estimate (MB)|plan size estimate 2 (MB)|plan size actual (MB)|data size (MB)|plan time (ms)"
           "|exec time (ms/signal)|exec time of batch (ms)|elements|performance (1k elem of signal/ms)|error message";
  out += "\n";
  char line[768];
  for (const Candidate& c : rows) {
    const bool real = c.kind != Kind::C2C;
    const std::string rank = c.batched ? "many" : std::to_string(c.size.rank()) + "D";
    const bool forward = c.kind == Kind::R2C || (c.kind == Kind::C2C && c.direction == Direction::Forward);
    std::snprintf(line, sizeof line, "%s|%s|%s %s|%s|%lld|%lld|%lld|%lld", rank.c_str(),
                  c.placement == Placement::InPlace ? "in-place" : "out-of-place", real ? "R2R" : "C2C",
                  forward ? "forward" : "inverse", c.precision == Precision::F32 ? "float" : "double",
                  static_cast<long long>(c.size.x), static_cast<long long>(c.size.y), static_cast<long long>(c.size.z),
                  static_cast<long long>(c.batch));
    out += line;
    if (measured) {
      const bool ok = c.measured && c.measured->ok();
      const double nan = std::nan("");
      const double exec = ok ? c.measured->median_ms_per_signal : nan;
      const double perf = ok ? (static_cast<double>(c.size.elements()) / 1000.0) / exec : nan;
      std::snprintf(line, sizeof line, "|%.10f|%.10f|%.10f|%.10f|%.10f|%.10f|%.10f|%lld|%.10f|%s",
                    mib(c.plan_bytes_estimate), mib(c.plan_bytes_estimate),
                    ok ? mib(c.measured->plan_bytes_actual) : nan, mib(c.data_bytes), ok ? c.measured->plan_ms : nan,
                    exec, ok ? c.measured->ms_per_exec : nan,
                    static_cast<long long>(c.size.elements() * c.batch), perf,
                    c.measured && !c.measured->ok() ? c.measured->error.c_str() : "");
      out += line;
    }
    out += "\n";
  }
  return out;
}

} // namespace frost::fft
