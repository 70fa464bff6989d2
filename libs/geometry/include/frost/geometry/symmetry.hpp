#pragma once
/// @file symmetry.hpp
/// @brief Point-group symmetry: Xmipp/RELION group names -> the list of 3x3 group elements.
///
/// Names and generators follow docs/conventions.md#symmetry-groups (xmippCore `SymList`, same lineage
/// as RELION `src/symmetries.cpp`). A group element R satisfies V(R·r) = V(r); an image at pose A
/// is also a projection at pose A·Rᵀ. Every group holds the identity as element 0.
///
/// Accepted names (case-insensitive, surrounding blanks ignored; n has 1–2 digits, n ≥ 1):
///
/// | Name      | Generators                                                | Order |
/// |-----------|-----------------------------------------------------------|-------|
/// | C1, Cn    | n-fold about z                                            | n     |
/// | Ci        | inversion                                                 | 2     |
/// | Cs        | mirror ⊥ z                                                | 2     |
/// | Cnv       | Cn + mirror ⊥ y                                           | 2n    |
/// | Cnh       | Cn + mirror ⊥ z                                           | 2n    |
/// | Sn (n even)| (n/2)-fold about z + inversion (Xmipp semantics: for n/2 even this is C(n/2)h, not the Schoenflies S_n; the order n is the same) | n |
/// | Dn        | n-fold about z + 2-fold about x                           | 2n    |
/// | Dnv       | Dn + mirror ⊥ x (Xmipp semantics: = Dn × Ci, the Schoenflies Dnd for odd n, Dnh for even n) | 4n |
/// | Dnh       | Dn + mirror ⊥ z                                           | 4n    |
/// | T         | 3-fold about z, 2-fold about (0, √(2/3), √(1/3))          | 12    |
/// | Td        | T + mirror ⊥ (1/2, √3/2, 0)                               | 24    |
/// | Th        | 3-fold about z, 2-fold about (0, −√(2/3), −√(1/3)), inversion | 24 |
/// | O         | 3-fold about (1,1,1)/√3, 4-fold about z                   | 24    |
/// | Oh        | O + mirror ⊥ (0,1,1)/√2                                   | 48    |
/// | I2 (= I)  | 2-fold z, 5-fold (1,0,φ)/s, 3-fold (0,1/φ,φ)/√3           | 60    |
/// | I1        | 2-fold x, 5-fold (φ,0,−1)/s, 3-fold (φ,1/φ,0)/√3          | 60    |
/// | I3        | 5-fold z, 2-fold (−sin θ,0,cos θ), 3-fold = M·(0,1/φ,φ)/√3 | 60    |
/// | I4        | 5-fold z, 2-fold (+sin θ,0,cos θ), 5-fold (2,0,1)/√5, 3-fold = P·(3-fold of I3) | 60 |
/// | I2h (= Ih)| I2 + mirror ⊥ x                                           | 120   |
/// | I1h       | I1 + mirror ⊥ z                                           | 120   |
/// | I3h       | I3 + mirror ⊥ (φ,0,1)/s                                   | 120   |
/// | I4h       | I4 + mirror ⊥ (φ,0,−1)/s                                  | 120   |
///
/// with φ = (1+√5)/2, s = √(1+φ²), θ = atan(1/φ) ≈ 31.717° (the angle between a 5-fold and the
/// nearest 2-fold). The four icosahedral settings are one group in four orientations:
///   * I2: Crowther/standard setting, 2-folds on x, y and z; 5-folds at (0,±1,±φ) cyclically
///     permuted, i.e. (±1,0,±φ), (0,±φ,±1), (±φ,±1,0); Xmipp and RELION default "I".
///   * I1: I2 rotated by 90° about z (I1 = Rz·I2·Rzᵀ); still 2-folds on x, y, z, 5-folds at
///     (0,±1,±φ), (±φ,0,±1), (±1,±φ,0).
///   * I3: I2 rotated about y so that its 5-fold (1,0,φ)/s lands on z (I3 = M·I2·Mᵀ, M the
///     rotation by θ in the xz-plane taking (sin θ,0,cos θ) to (0,0,1)); 5-fold on z, a 2-fold at
///     (−sin θ,0,cos θ) in the xz-plane (SPIDER setting).
///   * I4: I3 mirrored through the yz-plane (I4 = P·I3·P, P = diag(−1,1,1)), equivalently I3
///     rotated by 180° (or 36°) about z; 5-fold on z, a 2-fold at (+sin θ,0,cos θ).
/// The unit tests check these four relations element by element.
///
/// Rejected with frost::Error(Usage): unknown names (e.g. "c0", "x5", "s3"), I5 and I5h (listed
/// but "not implemented" in Xmipp and RELION), and symmetry files (not supported yet).
///
/// Closure: generators are expanded (all powers of each rotation axis, each mirror I − 2uuᵀ,
/// inversion −I) and the set is closed under multiplication with the xmippCore tolerance 1e-6
/// (max element difference); the result's order is checked against the table above.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "frost/geometry/mat3.hpp"

namespace frost::geom {

/// A finite point group given by its elements (rotations, plus det −1 elements for improper
/// groups). Element 0 is the identity. Built by parse_symmetry().
class SymmetryGroup {
public:
  SymmetryGroup(std::string name, std::vector<Mat3d> elements)
      : name_(std::move(name)), elements_(std::move(elements)) {}

  /// Canonical name: capital group letter, digits, lower-case suffix ("C4", "D2h", "Ci", "Td",
  /// "I2" for "i", "I2h" for "ih").
  const std::string& name() const noexcept { return name_; }
  /// All group elements, identity first.
  const std::vector<Mat3d>& elements() const noexcept { return elements_; }
  const Mat3d& operator[](std::size_t i) const { return elements_[i]; }
  /// Number of elements, identity included.
  int order() const noexcept { return static_cast<int>(elements_.size()); }
  /// True when the group holds an element with det = −1 (mirror, inversion, rotoreflection).
  bool is_improper() const noexcept;
  /// Index of the element within `tol` (max element difference) of R, or −1.
  int find(const Mat3d& R, double tol = 1e-6) const noexcept;
  bool contains(const Mat3d& R, double tol = 1e-6) const noexcept { return find(R, tol) >= 0; }

private:
  std::string name_;
  std::vector<Mat3d> elements_;
};

/// Group for a Xmipp/RELION symmetry name (see the file comment). Case-insensitive. Throws
/// frost::Error(Usage) naming the value for anything not listed.
SymmetryGroup parse_symmetry(const std::string& name);

/// Active right-handed rotation by `deg` degrees about `axis` (need not be normalised):
/// R = cos a·I + sin a·[u]× + (1 − cos a)·u·uᵀ, so R·v turns v counter-clockwise when seen from
/// the tip of u. Note euler.hpp's rotation_z(a) rotates the frame: rotation_z(a) equals
/// rotation_about_axis({0,0,1}, −a).
Mat3d rotation_about_axis(const Vec3d& axis, double deg);

/// Reflection through the plane through the origin with normal `normal`: I − 2·u·uᵀ.
Mat3d mirror_matrix(const Vec3d& normal);

} // namespace frost::geom
