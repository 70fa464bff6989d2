// Point-group symmetry (docs/conventions.md#symmetry-groups, test U4): names, orders, group
// axioms, the orientation of each setting, aliases and usage errors.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/test/support.hpp"

namespace frost::geom {
namespace {

const double kPhi = (1.0 + std::sqrt(5.0)) / 2.0;
const double kS = std::sqrt(1.0 + kPhi * kPhi);

Mat3d diag(double a, double b, double c) {
  Mat3d m;
  m.m[0][0] = a;
  m.m[1][1] = b;
  m.m[2][2] = c;
  return m;
}

// Every name the parser accepts that the tests exercise, with its order.
const std::vector<std::pair<std::string, int>>& all_groups() {
  static const std::vector<std::pair<std::string, int>> g = {
      {"C1", 1},   {"C2", 2},   {"C4", 4},   {"C7", 7},    {"C12", 12},  {"Ci", 2},    {"Cs", 2},
      {"C3v", 6},  {"C4v", 8},  {"C3h", 6},  {"C1h", 2},   {"S2", 2},    {"S4", 4},    {"S6", 6},
      {"D1", 2},   {"D2", 4},   {"D7", 14},  {"D2v", 8},   {"D3v", 12},  {"D2h", 8},   {"D3h", 12},
      {"T", 12},   {"Td", 24},  {"Th", 24},  {"O", 24},    {"Oh", 48},   {"I", 60},    {"I1", 60},
      {"I2", 60},  {"I3", 60},  {"I4", 60},  {"Ih", 120},  {"I1h", 120}, {"I2h", 120}, {"I3h", 120},
      {"I4h", 120}};
  return g;
}

bool is_improper_name(const std::string& n) {
  for (const char* s : {"Ci", "Cs", "C3v", "C4v", "C3h", "C1h", "S2", "S4", "S6", "D2v", "D3v", "D2h", "D3h", "Td",
                        "Th", "Oh", "Ih", "I1h", "I2h", "I3h", "I4h"})
    if (n == s) return true;
  return false;
}

// Same elements (as sets) to 1e-9.
void expect_same_set(const std::vector<Mat3d>& a, const SymmetryGroup& g, const std::string& what) {
  ASSERT_EQ(static_cast<int>(a.size()), g.order()) << what;
  for (const auto& R : a) EXPECT_TRUE(g.contains(R, 1e-9)) << what;
}

std::vector<Mat3d> conjugated(const Mat3d& M, const SymmetryGroup& g) {
  std::vector<Mat3d> out;
  for (const auto& R : g.elements()) out.push_back(M * R * M.transposed());
  return out;
}

TEST(Symmetry, Orders) {
  for (const auto& [name, order] : all_groups()) EXPECT_EQ(parse_symmetry(name).order(), order) << name;
}

TEST(Symmetry, GroupAxioms) {
  for (const auto& [name, order] : all_groups()) {
    const SymmetryGroup g = parse_symmetry(name);
    SCOPED_TRACE(name);
    EXPECT_LE(max_abs_diff(g[0], Mat3d::identity()), 1e-15);  // identity first
    int improper = 0;
    for (int i = 0; i < g.order(); ++i) {
      const Mat3d& A = g[i];
      EXPECT_LE(max_abs_diff(A * A.transposed(), Mat3d::identity()), 1e-12);
      EXPECT_NEAR(std::fabs(A.determinant()), 1.0, 1e-12);
      if (A.determinant() < 0) ++improper;
      EXPECT_TRUE(g.contains(A.transposed(), 1e-9));  // inverse
      for (int j = 0; j < g.order(); ++j) {
        if (j > i) {
          EXPECT_GT(max_abs_diff(A, g[j]), 1e-3) << "duplicate " << i << " " << j;
        }
        EXPECT_TRUE(g.contains(A * g[j], 1e-9)) << "product " << i << "*" << j;
      }
    }
    if (is_improper_name(name)) {
      EXPECT_TRUE(g.is_improper());
      EXPECT_EQ(2 * improper, order);
    } else {
      EXPECT_FALSE(g.is_improper());
      EXPECT_EQ(improper, 0);
    }
  }
}

TEST(Symmetry, RotationAboutAxisIsActiveRightHanded) {
  const Vec3d v = rotation_about_axis({0, 0, 2}, 90.0) * Vec3d{1, 0, 0};
  EXPECT_NEAR(v.x, 0.0, 1e-15);
  EXPECT_NEAR(v.y, 1.0, 1e-15);
  EXPECT_NEAR(v.z, 0.0, 1e-15);
  EXPECT_LE(max_abs_diff(rotation_about_axis({0, 0, 1}, 37.0), rotation_z(-37.0)), 1e-15);
  EXPECT_LE(max_abs_diff(mirror_matrix({0, 3, 0}), diag(1, -1, 1)), 1e-15);
}

TEST(Symmetry, CyclicDihedralAndImproperGenerators) {
  const auto c4 = parse_symmetry("c4");
  EXPECT_TRUE(c4.contains(rotation_about_axis({0, 0, 1}, 90.0)));
  EXPECT_FALSE(c4.contains(rotation_about_axis({1, 0, 0}, 180.0)));
  const auto d7 = parse_symmetry("d7");
  EXPECT_TRUE(d7.contains(rotation_about_axis({0, 0, 1}, 360.0 / 7)));
  EXPECT_TRUE(d7.contains(diag(1, -1, -1)));  // 2-fold about x
  EXPECT_TRUE(parse_symmetry("c3v").contains(diag(1, -1, 1)));    // mirror ⊥ y
  EXPECT_TRUE(parse_symmetry("c3h").contains(diag(1, 1, -1)));    // mirror ⊥ z
  EXPECT_TRUE(parse_symmetry("cs").contains(diag(1, 1, -1)));
  EXPECT_TRUE(parse_symmetry("ci").contains(diag(-1, -1, -1)));
  EXPECT_TRUE(parse_symmetry("d2v").contains(diag(-1, 1, 1)));    // mirror ⊥ x
  EXPECT_TRUE(parse_symmetry("d2h").contains(diag(1, 1, -1)));
  const auto s6 = parse_symmetry("s6");  // Xmipp: 3-fold z + inversion
  EXPECT_TRUE(s6.contains(rotation_about_axis({0, 0, 1}, 120.0)));
  EXPECT_TRUE(s6.contains(diag(-1, -1, -1)));
  EXPECT_TRUE(parse_symmetry("s4").contains(diag(-1, -1, -1)));   // Xmipp S4 = 2-fold z + inversion
}

TEST(Symmetry, CubicOrientations) {
  const auto t = parse_symmetry("t");
  EXPECT_TRUE(t.contains(rotation_about_axis({0, 0, 1}, 120.0)));
  EXPECT_TRUE(t.contains(rotation_about_axis({0, std::sqrt(2.0 / 3.0), std::sqrt(1.0 / 3.0)}, 180.0)));
  // T ⊂ Td, Th; O ⊂ Oh.
  for (const char* big : {"td", "th"})
    for (const auto& R : t.elements()) EXPECT_TRUE(parse_symmetry(big).contains(R, 1e-9)) << big;
  const auto o = parse_symmetry("o");
  EXPECT_TRUE(o.contains(rotation_about_axis({0, 0, 1}, 90.0)));
  EXPECT_TRUE(o.contains(rotation_about_axis({1, 0, 0}, 90.0)));
  EXPECT_TRUE(o.contains(rotation_about_axis({1, 1, 1}, 120.0)));
  EXPECT_TRUE(o.contains(rotation_about_axis({1, 1, 0}, 180.0)));
  const auto oh = parse_symmetry("oh");
  for (const auto& R : o.elements()) EXPECT_TRUE(oh.contains(R, 1e-9));
  EXPECT_TRUE(oh.contains(diag(-1, -1, -1)));
}

TEST(Symmetry, IcosahedralI2IsTheCrowtherSetting) {
  const auto i2 = parse_symmetry("i2");
  EXPECT_TRUE(i2.contains(diag(1, -1, -1)));  // 2-folds on x, y, z
  EXPECT_TRUE(i2.contains(diag(-1, 1, -1)));
  EXPECT_TRUE(i2.contains(diag(-1, -1, 1)));
  // 5-folds (±1, 0, ±φ) and cyclic permutations; 3-fold (0, 1/φ, φ).
  for (const Vec3d& a : {Vec3d{1, 0, kPhi}, Vec3d{-1, 0, kPhi}, Vec3d{0, kPhi, 1}, Vec3d{kPhi, 1, 0}})
    EXPECT_TRUE(i2.contains(rotation_about_axis(a, 72.0), 1e-9));
  EXPECT_TRUE(i2.contains(rotation_about_axis({0, 1 / kPhi, kPhi}, 120.0), 1e-9));
  EXPECT_FALSE(i2.contains(rotation_about_axis({0, 1, kPhi}, 72.0)));   // that is I1's
  EXPECT_FALSE(i2.contains(rotation_about_axis({0, 0, 1}, 72.0)));      // that is I3's
}

TEST(Symmetry, IcosahedralSettingsAreRotationsOfI2) {
  const auto i1 = parse_symmetry("i1"), i2 = parse_symmetry("i2"), i3 = parse_symmetry("i3"), i4 = parse_symmetry("i4");
  // I1 = I2 rotated 90° about z: still 2-folds on x, y, z, 5-fold (φ, 0, −1).
  expect_same_set(conjugated(rotation_about_axis({0, 0, 1}, 90.0), i2), i1, "I1 = Rz90 I2");
  EXPECT_TRUE(i1.contains(diag(1, -1, -1)));
  EXPECT_TRUE(i1.contains(diag(-1, -1, 1)));
  EXPECT_TRUE(i1.contains(rotation_about_axis({kPhi, 0, -1}, 72.0), 1e-9));
  EXPECT_TRUE(i1.contains(rotation_about_axis({0, 1, kPhi}, 72.0), 1e-9));
  // I3 = I2 turned about y so that the 5-fold (1, 0, φ) lies on z.
  const double theta = std::atan(1.0 / kPhi) * 180.0 / 3.14159265358979323846;
  const Mat3d M = rotation_about_axis({0, 1, 0}, -theta);
  const Vec3d five = M * Vec3d{1 / kS, 0, kPhi / kS};
  EXPECT_NEAR(five.z, 1.0, 1e-15);
  expect_same_set(conjugated(M, i2), i3, "I3 = M I2");
  EXPECT_TRUE(i3.contains(rotation_about_axis({0, 0, 1}, 72.0), 1e-9));
  EXPECT_TRUE(i3.contains(rotation_about_axis({-1 / kS, 0, kPhi / kS}, 180.0), 1e-9));
  EXPECT_FALSE(i3.contains(rotation_about_axis({1 / kS, 0, kPhi / kS}, 180.0)));
  // I4 = I3 mirrored in x = I3 rotated 180° (or 36°) about z.
  const Mat3d P = diag(-1, 1, 1);
  std::vector<Mat3d> mirrored;
  for (const auto& R : i3.elements()) mirrored.push_back(P * R * P);
  expect_same_set(mirrored, i4, "I4 = P I3 P");
  expect_same_set(conjugated(rotation_about_axis({0, 0, 1}, 36.0), i3), i4, "I4 = Rz36 I3");
  EXPECT_TRUE(i4.contains(rotation_about_axis({0, 0, 1}, 72.0), 1e-9));
  EXPECT_TRUE(i4.contains(rotation_about_axis({2, 0, 1}, 72.0), 1e-9));
  EXPECT_TRUE(i4.contains(rotation_about_axis({1 / kS, 0, kPhi / kS}, 180.0), 1e-9));
}

TEST(Symmetry, IcosahedralMirrorGroups) {
  for (int s = 1; s <= 4; ++s) {
    const auto rot = parse_symmetry("i" + std::to_string(s));
    const auto full = parse_symmetry("i" + std::to_string(s) + "h");
    for (const auto& R : rot.elements()) EXPECT_TRUE(full.contains(R, 1e-9)) << s;
    EXPECT_TRUE(full.contains(diag(-1, -1, -1), 1e-9)) << s;  // Ih holds the inversion
  }
  EXPECT_TRUE(parse_symmetry("ih").contains(diag(-1, 1, 1)));
}

TEST(Symmetry, AliasesAndCase) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"c1", "C1"},   {"C1", "C1"},   {"c4", "C4"},  {" D7 ", "D7"}, {"c3V", "C3v"}, {"C3H", "C3h"},
      {"CI", "Ci"},   {"cs", "Cs"},   {"s4", "S4"},  {"d2h", "D2h"}, {"td", "Td"},   {"TH", "Th"},
      {"o", "O"},     {"oH", "Oh"},   {"i", "I2"},   {"I", "I2"},    {"ih", "I2h"},  {"IH", "I2h"},
      {"i1", "I1"},   {"i3h", "I3h"}, {"d2V", "D2v"}};
  for (const auto& [in, canon] : cases) EXPECT_EQ(parse_symmetry(in).name(), canon) << in;
  const auto a = parse_symmetry("i"), b = parse_symmetry("I2");
  ASSERT_EQ(a.order(), b.order());
  for (int k = 0; k < a.order(); ++k) EXPECT_LE(max_abs_diff(a[k], b[k]), 0.0);
}

TEST(Symmetry, BadNamesAreUsageErrors) {
  for (const char* bad : {"", "c0", "x5", "i5", "I5H", "i6", "s3", "c123", "c4x", "c4vh", "cv", "d", "t2", "o3",
                          "ihh", "c01", "sym.txt"}) {
    try {
      parse_symmetry(bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Usage) << bad;
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

} // namespace
} // namespace frost::geom
