// Point-group symmetry (docs/conventions.md#symmetry-groups): name parsing, generators, closure.
#include "frost/geometry/symmetry.hpp"

#include <cctype>
#include <cmath>

#include "frost/core/error.hpp"

namespace frost::geom {

namespace {

constexpr double kPi = 3.14159265358979323846;
// xmippCore SYM_ACCURACY: two elements are the same when no entry differs by more than this.
constexpr double kSameTol = 1e-6;
// The elements must be orthogonal to this accuracy.
constexpr double kOrthoTol = 1e-9;

// One generator of a group.
struct Generator {
  enum Kind { Axis, Mirror, Inversion } kind;
  int fold = 0;  // Axis only
  Vec3d v{};     // axis or mirror normal
};

Generator axis(int fold, Vec3d v) { return {Generator::Axis, fold, v}; }
Generator mirror(Vec3d v) { return {Generator::Mirror, 0, v}; }
Generator inversion() { return {Generator::Inversion, 0, {}}; }

Vec3d normalised(const Vec3d& v) {
  const double n = std::sqrt(dot(v, v));
  return (1.0 / n) * v;
}

[[noreturn]] void bad_name(const std::string& name, const std::string& why) {
  FROST_THROW(ExitCode::Usage, "invalid symmetry '" + name + "': " + why);
}

const char* const kKnown =
    "expected C1, Cn, Ci, Cs, Cnv, Cnh, Sn (n even), Dn, Dnv, Dnh, T, Td, Th, O, Oh, I, I1-I4, Ih, "
    "I1h-I4h (case-insensitive, n of 1-2 digits)";

// Parsed form of a name: letter, n (0 when none), suffix ('\0', 'V', 'H', 'D', 'I', 'S').
struct ParsedName {
  char letter = 0;
  int n = 0;
  char suffix = 0;
};

ParsedName split_name(const std::string& original, const std::string& s) {
  ParsedName p;
  if (s.empty()) bad_name(original, kKnown);
  p.letter = s[0];
  std::size_t i = 1;
  std::size_t digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    if (++digits > 2) bad_name(original, "n has at most 2 digits");
    p.n = p.n * 10 + (s[i] - '0');
    ++i;
  }
  if (digits > 0 && s[1] == '0') bad_name(original, "n must be a positive integer without leading zeros");
  if (i + 1 < s.size()) bad_name(original, kKnown);
  if (i < s.size()) p.suffix = s[i];
  return p;
}

struct Recipe {
  std::string canonical;
  std::vector<Generator> gens;
  int expected_order = 0;
};

Recipe recipe_for(const std::string& original) {
  std::string s;
  for (char c : original)
    if (!std::isspace(static_cast<unsigned char>(c))) s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const ParsedName p = split_name(original, s);
  const Vec3d ex{1, 0, 0}, ey{0, 1, 0}, ez{0, 0, 1};
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  const double sq = std::sqrt(1.0 + phi * phi);  // |(1, 0, φ)|
  const double r3 = std::sqrt(3.0);
  const bool has_n = p.n > 0;

  switch (p.letter) {
    case 'C': {
      if (!has_n) {
        if (p.suffix == 'I') return {"Ci", {inversion()}, 2};
        if (p.suffix == 'S') return {"Cs", {mirror(ez)}, 2};
        bad_name(original, kKnown);
      }
      const std::string n = std::to_string(p.n);
      if (p.suffix == 0) return {"C" + n, {axis(p.n, ez)}, p.n};
      if (p.suffix == 'V') return {"C" + n + "v", {axis(p.n, ez), mirror(ey)}, 2 * p.n};
      if (p.suffix == 'H') return {"C" + n + "h", {axis(p.n, ez), mirror(ez)}, 2 * p.n};
      bad_name(original, kKnown);
    }
    case 'S': {
      if (!has_n || p.suffix != 0) bad_name(original, kKnown);
      if (p.n % 2 != 0) bad_name(original, "Sn needs an even n");
      return {"S" + std::to_string(p.n), {axis(p.n / 2, ez), inversion()}, p.n};
    }
    case 'D': {
      if (!has_n) bad_name(original, kKnown);
      const std::string n = std::to_string(p.n);
      std::vector<Generator> g{axis(p.n, ez), axis(2, ex)};
      if (p.suffix == 0) return {"D" + n, std::move(g), 2 * p.n};
      if (p.suffix == 'V') {
        g.push_back(mirror(ex));
        return {"D" + n + "v", std::move(g), 4 * p.n};
      }
      if (p.suffix == 'H') {
        g.push_back(mirror(ez));
        return {"D" + n + "h", std::move(g), 4 * p.n};
      }
      bad_name(original, kKnown);
    }
    case 'T': {
      if (has_n) bad_name(original, kKnown);
      const Vec3d two{0, std::sqrt(2.0 / 3.0), std::sqrt(1.0 / 3.0)};
      if (p.suffix == 0) return {"T", {axis(3, ez), axis(2, two)}, 12};
      if (p.suffix == 'D') return {"Td", {axis(3, ez), axis(2, two), mirror({0.5, std::sqrt(3.0) / 2.0, 0})}, 24};
      if (p.suffix == 'H') return {"Th", {axis(3, ez), axis(2, -1.0 * two), inversion()}, 24};
      bad_name(original, kKnown);
    }
    case 'O': {
      if (has_n) bad_name(original, kKnown);
      if (p.suffix == 0) return {"O", {axis(3, {1, 1, 1}), axis(4, ez)}, 24};
      if (p.suffix == 'H') return {"Oh", {axis(3, {1, 1, 1}), axis(4, ez), mirror({0, 1, 1})}, 48};
      bad_name(original, kKnown);
    }
    case 'I': {
      if (p.suffix != 0 && p.suffix != 'H') bad_name(original, kKnown);
      const int setting = has_n ? p.n : 2;  // "I" and "Ih" are I2 and I2h
      if (setting == 5) bad_name(original, "I5/I5h are not implemented (as in Xmipp and RELION)");
      if (setting < 1 || setting > 4) bad_name(original, kKnown);
      const bool h = p.suffix == 'H';
      std::vector<Generator> g;
      Vec3d m{};
      switch (setting) {
        case 1:
          g = std::vector<Generator>{axis(2, ex), axis(5, {phi, 0, -1}), axis(3, {phi, 1 / phi, 0})};
          m = {0, 0, -1};
          break;
        case 2:
          g = std::vector<Generator>{axis(2, ez), axis(5, {1, 0, phi}), axis(3, {0, 1 / phi, phi})};
          m = ex;
          break;
        case 3:  // 5-fold z; 2-fold (−sinθ, 0, cosθ); 3-fold M·(0, 1/φ, φ)/√3
          g = std::vector<Generator>{axis(2, {-1 / sq, 0, phi / sq}), axis(3, {-phi / sq / r3, 1 / phi / r3, phi * phi / sq / r3}),
               axis(5, ez)};
          m = {phi, 0, 1};
          break;
        default:  // 4: I3 mirrored in x
          g = std::vector<Generator>{axis(2, {1 / sq, 0, phi / sq}), axis(3, {phi / sq / r3, 1 / phi / r3, phi * phi / sq / r3}),
               axis(5, {2, 0, 1})};
          m = {phi, 0, -1};
          break;
      }
      if (h) g.push_back(mirror(m));
      return {"I" + std::to_string(setting) + (h ? "h" : ""), std::move(g), h ? 120 : 60};
    }
    default:
      bad_name(original, kKnown);
  }
}

} // namespace

Mat3d rotation_about_axis(const Vec3d& axis_in, double deg) {
  const Vec3d u = normalised(axis_in);
  const double a = deg * kPi / 180.0, c = std::cos(a), s = std::sin(a), t = 1.0 - c;
  Mat3d R;
  R.m[0][0] = c + t * u.x * u.x;
  R.m[0][1] = t * u.x * u.y - s * u.z;
  R.m[0][2] = t * u.x * u.z + s * u.y;
  R.m[1][0] = t * u.y * u.x + s * u.z;
  R.m[1][1] = c + t * u.y * u.y;
  R.m[1][2] = t * u.y * u.z - s * u.x;
  R.m[2][0] = t * u.z * u.x - s * u.y;
  R.m[2][1] = t * u.z * u.y + s * u.x;
  R.m[2][2] = c + t * u.z * u.z;
  return R;
}

Mat3d mirror_matrix(const Vec3d& normal) {
  const Vec3d u = normalised(normal);
  Mat3d R = Mat3d::identity();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R.m[i][j] -= 2.0 * u[i] * u[j];
  return R;
}

bool SymmetryGroup::is_improper() const noexcept {
  for (const auto& R : elements_)
    if (R.determinant() < 0) return true;
  return false;
}

int SymmetryGroup::find(const Mat3d& R, double tol) const noexcept {
  for (std::size_t i = 0; i < elements_.size(); ++i)
    if (max_abs_diff(elements_[i], R) <= tol) return static_cast<int>(i);
  return -1;
}

SymmetryGroup parse_symmetry(const std::string& name) {
  const Recipe r = recipe_for(name);

  // Expand the generators into matrices.
  std::vector<Mat3d> gens;
  for (const auto& g : r.gens) {
    switch (g.kind) {
      case Generator::Axis:
        for (int j = 1; j < g.fold; ++j) gens.push_back(rotation_about_axis(g.v, 360.0 * j / g.fold));
        break;
      case Generator::Mirror:
        gens.push_back(mirror_matrix(g.v));
        break;
      case Generator::Inversion: {
        Mat3d inv;
        inv.m[0][0] = inv.m[1][1] = inv.m[2][2] = -1.0;
        gens.push_back(inv);
        break;
      }
    }
  }

  // Close under multiplication: left-multiply every element found so far by every generator.
  // In a finite group this reaches every product of generators, i.e. the whole group.
  std::vector<Mat3d> elems{Mat3d::identity()};
  const int limit = 4 * r.expected_order + 8;  // guard against a runaway closure
  for (std::size_t i = 0; i < elems.size(); ++i) {
    for (const auto& g : gens) {
      const Mat3d p = g * elems[i];
      bool seen = false;
      for (const auto& e : elems)
        if (max_abs_diff(e, p) <= kSameTol) {
          seen = true;
          break;
        }
      if (!seen) elems.push_back(p);
      FROST_EXPECTS(static_cast<int>(elems.size()) <= limit, "symmetry closure of " + r.canonical + " does not terminate");
    }
  }
  FROST_EXPECTS(static_cast<int>(elems.size()) == r.expected_order,
                "symmetry " + r.canonical + " closed to " + std::to_string(elems.size()) + " elements, expected " +
                    std::to_string(r.expected_order));
  for (const auto& e : elems) {
    const Mat3d d = e * e.transposed();
    FROST_EXPECTS(max_abs_diff(d, Mat3d::identity()) <= kOrthoTol, "non-orthogonal element in " + r.canonical);
  }
  return SymmetryGroup(r.canonical, std::move(elems));
}

} // namespace frost::geom
