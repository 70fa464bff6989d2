#pragma once
/// @file mat3.hpp
/// @brief Small fixed-size vector and matrix types (Vec3, Mat3) shared by CPU loops and kernels.
///
/// Everything here is FROST_HD inline and trivially copyable, so a Mat3 can be passed by value
/// to a CUDA kernel. Matrices are row-major: m[r][c] is row r, column c, and a matrix acts on
/// column vectors (y = M x).
#include "frost/core/hd.hpp"

namespace frost::geom {

/// A 3-vector (x, y, z).
template <class T>
struct Vec3 {
  T x = 0, y = 0, z = 0;

  FROST_HD T& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  FROST_HD const T& operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }

  template <class U>
  FROST_HD Vec3<U> cast() const {
    return {static_cast<U>(x), static_cast<U>(y), static_cast<U>(z)};
  }
};

template <class T>
FROST_HD inline Vec3<T> operator+(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class T>
FROST_HD inline Vec3<T> operator-(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T>
FROST_HD inline Vec3<T> operator*(T s, const Vec3<T>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class T>
FROST_HD inline T dot(const Vec3<T>& a, const Vec3<T>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class T>
FROST_HD inline Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// A 3x3 matrix, row-major.
template <class T>
struct Mat3 {
  T m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};

  FROST_HD static Mat3 identity() {
    Mat3 r;
    r.m[0][0] = r.m[1][1] = r.m[2][2] = T(1);
    return r;
  }
  /// Matrix whose rows are a, b, c.
  FROST_HD static Mat3 from_rows(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
    Mat3 r;
    for (int j = 0; j < 3; ++j) {
      r.m[0][j] = a[j];
      r.m[1][j] = b[j];
      r.m[2][j] = c[j];
    }
    return r;
  }

  FROST_HD T& operator()(int r, int c) { return m[r][c]; }
  FROST_HD const T& operator()(int r, int c) const { return m[r][c]; }
  FROST_HD Vec3<T> row(int r) const { return {m[r][0], m[r][1], m[r][2]}; }
  FROST_HD Vec3<T> col(int c) const { return {m[0][c], m[1][c], m[2][c]}; }

  FROST_HD Mat3 transposed() const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = m[j][i];
    return r;
  }
  FROST_HD T determinant() const {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  }
  FROST_HD T trace() const { return m[0][0] + m[1][1] + m[2][2]; }

  template <class U>
  FROST_HD Mat3<U> cast() const {
    Mat3<U> r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = static_cast<U>(m[i][j]);
    return r;
  }
};

template <class T>
FROST_HD inline Mat3<T> operator*(const Mat3<T>& a, const Mat3<T>& b) {
  Mat3<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  return r;
}

template <class T>
FROST_HD inline Vec3<T> operator*(const Mat3<T>& a, const Vec3<T>& v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
          a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}

/// Largest absolute element difference (for tests and orthogonality checks).
template <class T>
FROST_HD inline T max_abs_diff(const Mat3<T>& a, const Mat3<T>& b) {
  T d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const T e = a.m[i][j] > b.m[i][j] ? a.m[i][j] - b.m[i][j] : b.m[i][j] - a.m[i][j];
      d = e > d ? e : d;
    }
  return d;
}

using Vec3f = Vec3<float>;
using Vec3d = Vec3<double>;
using Mat3f = Mat3<float>;
using Mat3d = Mat3<double>;

} // namespace frost::geom
