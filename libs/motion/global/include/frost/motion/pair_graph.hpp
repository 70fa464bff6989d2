#pragma once
/// @file pair_graph.hpp
/// @brief Connectivity of frames through pair equations: the least-squares system has a unique
/// solution (with d_0 = 0) only when every frame is linked to frame 0
/// (docs/movie_align.md#robust-least-squares).
#include <vector>

namespace frost::motion {

/// Union-find over frame indices; a component's root is its lowest frame.
class FrameComponents {
public:
  explicit FrameComponents(int frames);
  int find(int f);
  /// Joins the components of a and b; false when they already were one.
  bool join(int a, int b);
  int components() const { return components_; }

private:
  std::vector<int> parent_;
  int components_;
};

} // namespace frost::motion
