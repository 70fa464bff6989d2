#include "frost/motion/pair_graph.hpp"

#include <numeric>

namespace frost::motion {

FrameComponents::FrameComponents(int frames) : parent_(static_cast<std::size_t>(frames)), components_(frames) {
  std::iota(parent_.begin(), parent_.end(), 0);
}

int FrameComponents::find(int f) {
  while (parent_[static_cast<std::size_t>(f)] != f) {
    int& p = parent_[static_cast<std::size_t>(f)];
    p = parent_[static_cast<std::size_t>(p)]; // path halving
    f = p;
  }
  return f;
}

bool FrameComponents::join(int a, int b) {
  const int ra = find(a), rb = find(b);
  if (ra == rb) return false;
  // The smaller root wins, so a component's root is its lowest frame.
  if (ra < rb) parent_[static_cast<std::size_t>(rb)] = ra;
  else parent_[static_cast<std::size_t>(ra)] = rb;
  --components_;
  return true;
}

} // namespace frost::motion
