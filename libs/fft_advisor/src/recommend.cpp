// The recommendation pipeline (docs/fft_advisor.md#recommendation-algorithm): validation, combination of the
// per-dimension lists inside the total and proximity windows, the 2D rotation tree, transposition,
// option expansion with batch and memory, ranking.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <set>
#include <tuple>

#include "frost/fft/heuristic.hpp"
#include "heuristic_detail.hpp"

namespace frost::fft {

namespace {
const char* dimension_name(int d) { return d == 0 ? "x" : d == 1 ? "y" : "z"; }
} // namespace

namespace detail {

namespace {

std::size_t clamp_bytes(wide_t v) {
  const auto max = static_cast<wide_t>(std::numeric_limits<std::size_t>::max());
  return v > max ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(v);
}

template <class T>
std::vector<T> distinct(const std::vector<T>& values) {
  std::vector<T> out;
  for (const T& v : values)
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

} // namespace

void validate_request(const AdvisorRequest& req) {
  for (int d = 0; d < 3; ++d)
    if (req.size[d] < 1)
      throw_usage_error(std::string("dimension ") + dimension_name(d) + " must be positive, got " +
                        std::to_string(req.size[d]));
  if (req.size.z > 1 && req.size.y < 2) throw_usage_error("a 3D problem needs Y >= 2");
  if (req.signals < 1) throw_usage_error("the number of signals must be positive");
  const wide_t total = static_cast<wide_t>(req.size.x) * req.size.y * req.size.z * req.signals;
  if (total >= (static_cast<wide_t>(1) << 62))
    throw_usage_error("the element count " + to_string(req.size) + " x " + std::to_string(req.signals) +
                      " must be below 2^62");
  if (req.precisions.empty() || req.kinds.empty() || req.placements.empty() || req.batched.empty())
    throw_usage_error("every option list (precision, kind, placement, batched) needs at least one value");
  if (std::find(req.kinds.begin(), req.kinds.end(), Kind::C2C) != req.kinds.end() && req.directions.empty())
    throw_usage_error("c2c needs at least one direction");
  if (req.max_change_pct && (std::isnan(*req.max_change_pct) || *req.max_change_pct < 0))
    throw_usage_error("the maximum change must be a percentage >= 0");
  if (req.optimize_dims < 0 || req.optimize_dims > 3)
    throw_usage_error("the number of optimised dimensions must be 1..3 (0 = all)");
  if (req.square_only && req.allow_transposition)
    throw_usage_error("square-only and transposition are mutually exclusive");
  if (req.count < 1) throw_usage_error("the result count must be positive");
  if (req.window < 0) throw_usage_error("the proximity window must be positive (0 = default)");
}

int proximity_window(const AdvisorRequest& req) { return req.window > 0 ? req.window : std::max(10, req.count); }

std::size_t data_bytes(const Candidate& c) {
  const wide_t complex_b = c.precision == Precision::F64 ? 16 : 8;
  const wide_t real_b = complex_b / 2;
  const wide_t rows = static_cast<wide_t>(c.size.y) * c.size.z;
  const wide_t full = c.size.x * rows;
  wide_t in, out;
  if (c.kind == Kind::C2C) {
    in = out = full * complex_b;
  } else {
    const wide_t half = (c.size.x / 2 + 1) * rows;
    // In place the real rows are padded to 2 (X/2 + 1) reals so the half spectrum fits.
    const wide_t real_side = (c.placement == Placement::InPlace ? 2 * half : full) * real_b;
    const wide_t complex_side = half * complex_b;
    in = c.kind == Kind::R2C ? real_side : complex_side;
    out = c.kind == Kind::R2C ? complex_side : real_side;
  }
  const wide_t one = c.placement == Placement::InPlace ? std::max(in, out) : in + out;
  return clamp_bytes(one * c.batch);
}

Direction implied_direction(Kind kind, Direction requested) {
  if (kind == Kind::R2C) return Direction::Forward;
  if (kind == Kind::C2R) return Direction::Inverse;
  return requested;
}

wide_t element_distance(const Extent& size, const Extent& request) {
  const wide_t a = static_cast<wide_t>(size.x) * size.y * size.z;
  const wide_t b = static_cast<wide_t>(request.x) * request.y * request.z;
  return a > b ? a - b : b - a;
}

bool heuristic_less(const Candidate& a, const Candidate& b, const Extent& request, TieBreak tie_break) {
  // Rule 1: float, real, out-of-place, batched first (rules of thumb 3 and 4).
  const auto options = [](const Candidate& c) {
    return std::make_tuple(c.precision == Precision::F64, c.kind == Kind::C2C, c.placement == Placement::InPlace,
                           !c.batched);
  };
  if (options(a) != options(b)) return options(a) < options(b);
  // Rule 2: larger batch.
  if (a.batch != b.batch) return a.batch > b.batch;
  // Rule 3: fewer launches in total, then in X, Y, Z.
  const auto kernels = [](const Candidate& c) {
    return std::make_tuple(c.kernels_total, c.kernels[0], c.kernels[1], c.kernels[2]);
  };
  if (kernels(a) != kernels(b)) return kernels(a) < kernels(b);
  // Rule 4: closest element count (frost) or fewest elements (reference).
  const wide_t ka = tie_break == TieBreak::Closest ? element_distance(a.size, request)
                                                   : static_cast<wide_t>(a.size.x) * a.size.y * a.size.z;
  const wide_t kb = tie_break == TieBreak::Closest ? element_distance(b.size, request)
                                                   : static_cast<wide_t>(b.size.x) * b.size.y * b.size.z;
  if (ka != kb) return ka < kb;
  // Rule 5: sizes ascending, unrotated first; then kind and direction so the order is total.
  const auto rest = [](const Candidate& c) {
    return std::make_tuple(c.size.x, c.size.y, c.size.z, c.rotated, static_cast<int>(c.kind),
                           static_cast<int>(implied_direction(c.kind, c.direction)));
  };
  return rest(a) < rest(b);
}

void describe(Candidate& c, const Extent& request, const Profile& profile) {
  c.kernels_total = 0;
  unsigned primes = 0;
  for (int d = 0; d < 3; ++d) {
    const index_t m = c.size[d];
    c.kernels[static_cast<std::size_t>(d)] = m == 1 ? 0 : kernel_estimate(m, profile, c.precision);
    c.kernels_total += c.kernels[static_cast<std::size_t>(d)];
    const index_t small_primes[4] = {2, 3, 5, 7};
    for (unsigned i = 0; i < 4; ++i)
      if (m % small_primes[i] == 0) primes |= 1u << i;
  }
  c.terms = __builtin_popcount(primes);
  const double requested = static_cast<double>(request.elements());
  const wide_t diff = static_cast<wide_t>(c.size.x) * c.size.y * c.size.z - static_cast<wide_t>(request.elements());
  c.change_pct = static_cast<double>(diff) / requested * 100.0;
}

bool fit_batch(Candidate& c, index_t signals, const std::optional<std::size_t>& mem_limit,
               const ScratchModel& scratch) {
  const auto required = [&](index_t b) {
    c.batch = b;
    c.data_bytes = data_bytes(c);
    c.plan_bytes_estimate = scratch.scratch_bytes(c);
    return static_cast<wide_t>(c.data_bytes) + c.plan_bytes_estimate;
  };
  const auto fits = [&](index_t b) {
    const wide_t need = required(b); // always evaluated: it also fills the byte fields
    return !mem_limit || need <= static_cast<wide_t>(*mem_limit);
  };
  if (!c.batched) return fits(1); // one signal per execution
  if (!mem_limit) {
    required(signals);
    return true;
  }
  if (!fits(1)) {
    required(1); // describe the smallest configuration for the error message
    return false;
  }
  // 1, 2, 4, ... while fitting (never above N), then the largest fitting value below the first
  // failure.
  index_t good = 1, bad = 0;
  while (good < signals) {
    const index_t next = std::min(2 * good, signals);
    if (!fits(next)) {
      bad = next;
      break;
    }
    good = next;
  }
  if (bad > 0) {
    while (bad - good > 1) {
      const index_t mid = good + (bad - good) / 2;
      (fits(mid) ? good : bad) = mid;
    }
  }
  required(good);
  return true;
}

} // namespace detail

namespace {

using detail::wide_t;

/// A size tuple ordered by its proximity key (docs/fft_advisor.md#combination-and-the-proximity-window).
struct Tuple {
  wide_t distance = 0;
  std::array<index_t, 3> v{1, 1, 1};
  // Written out rather than with std::tie: GCC 12 reports a false -Warray-bounds through the
  // inlined tuple comparison in the heap.
  friend bool operator<(const Tuple& a, const Tuple& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    for (std::size_t d = 0; d < 3; ++d)
      if (a.v[d] != b.v[d]) return a.v[d] < b.v[d];
    return false;
  }
};

/// Keeps the W best tuples seen (a max-heap of the kept ones, worst on top).
class ProximityWindow {
public:
  explicit ProximityWindow(std::size_t w) : w_(w) {}
  bool full() const { return heap_.size() >= w_; }
  const Tuple& worst() const { return heap_.top(); }
  /// Offers a tuple; false when it does not enter the window.
  bool offer(const Tuple& t) {
    if (full() && !(t < heap_.top())) return false;
    heap_.push(t);
    if (heap_.size() > w_) heap_.pop();
    return true;
  }
  std::vector<Tuple> sorted() {
    std::vector<Tuple> out;
    while (!heap_.empty()) {
      out.push_back(heap_.top());
      heap_.pop();
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

private:
  std::size_t w_;
  std::priority_queue<Tuple> heap_;
};

/// One problem to combine: sizes, parities and kept flags (a permutation of the request's).
struct Problem {
  std::array<index_t, 3> n{1, 1, 1};
  std::array<Parity, 3> parity{Parity::Any, Parity::Any, Parity::Any};
  std::array<bool, 3> kept{true, true, true};
  std::array<int, 3> origin{0, 1, 2}; ///< which request dimension each position came from
};

/// The total element window (docs/fft_advisor.md#combination-and-the-proximity-window; inclusive).
struct TotalWindow {
  wide_t lo = 0, hi = 0;
};

TotalWindow total_window(const Problem& pb, Resize resize, const std::optional<std::int64_t>& pct,
                         const std::array<index_t, 3>& caps) {
  const wide_t total = static_cast<wide_t>(pb.n[0]) * pb.n[1] * pb.n[2];
  if (resize == Resize::Pad) {
    const wide_t cap = static_cast<wide_t>(caps[0]) * caps[1] * caps[2];
    return {total, pct ? std::min<wide_t>(cap, detail::grow_floor(total, *pct)) : cap};
  }
  if (resize == Resize::Crop) return {pct ? detail::shrink_ceil(total, *pct) : 1, total};
  return {total, total};
}

/// The combination of docs/fft_advisor.md#combination-and-the-proximity-window without square: the W tuples
/// of F_X x F_Y x F_Z closest to the request inside the total window. Walks the lists in the direction in
/// which the distance grows, so every loop can stop as soon as nothing further can enter the window.
std::vector<Tuple> closest_tuples(const std::array<std::vector<index_t>, 3>& lists, wide_t target, TotalWindow tw,
                                  bool crop, std::size_t w) {
  ProximityWindow window(w);
  std::array<std::vector<index_t>, 3> f = lists;
  if (crop)
    for (auto& l : f) std::reverse(l.begin(), l.end()); // largest first: distance grows along the list
  const auto dist = [&](wide_t e) { return e > target ? e - target : target - e; };
  // Best distance reachable with the remaining dimensions at their extreme (first) values.
  const auto hopeless = [&](wide_t best_product) {
    if (!window.full()) return false;
    const wide_t d = crop ? (best_product >= target ? 0 : target - best_product)
                          : (best_product <= target ? 0 : best_product - target);
    return d > window.worst().distance;
  };
  const wide_t min_y = *std::min_element(f[1].begin(), f[1].end());
  const wide_t max_y = *std::max_element(f[1].begin(), f[1].end());
  const wide_t min_z = *std::min_element(f[2].begin(), f[2].end());
  const wide_t max_z = *std::max_element(f[2].begin(), f[2].end());
  // First position of a walked list whose member can still reach the window given the product
  // `head` of the outer sizes and the extreme `rest` of the inner ones (binary search: the lists
  // can hold thousands of sizes in crop mode without a limit).
  const auto first_useful = [&](const std::vector<index_t>& l, wide_t head) {
    if (crop) {
      const index_t bound = detail::saturate(tw.hi / head); // members <= hi / head
      return std::lower_bound(l.begin(), l.end(), bound, std::greater<index_t>());
    }
    const index_t bound = detail::saturate((tw.lo + head - 1) / head); // members >= lo / head
    return std::lower_bound(l.begin(), l.end(), bound);
  };
  for (index_t x : f[0]) {
    const wide_t lo_x = x * min_y * min_z, hi_x = x * max_y * max_z;
    if (hopeless(crop ? hi_x : lo_x)) break;
    if (hi_x < tw.lo || lo_x > tw.hi) continue;
    for (auto iy = first_useful(f[1], crop ? x * min_z : x * max_z); iy != f[1].end(); ++iy) {
      const wide_t xy = static_cast<wide_t>(x) * *iy;
      if (hopeless(crop ? xy * max_z : xy * min_z)) break;
      if (crop ? xy * max_z < tw.lo : xy * min_z > tw.hi) break; // further y only move away
      for (auto iz = first_useful(f[2], xy); iz != f[2].end(); ++iz) {
        const wide_t e = xy * *iz;
        if (e < tw.lo || e > tw.hi) break; // walking away from the target: nothing further fits
        if (!window.offer({dist(e), {x, *iy, *iz}})) break;
      }
    }
  }
  return window.sorted();
}

/// The dimension whose list gives the sides of square candidates: the largest when padding (every
/// side must reach it), the smallest when cropping; -1 for a 1x1x1 problem.
int lead_dimension(const Problem& pb, bool crop) {
  int lead = -1;
  for (std::size_t d = 0; d < 3; ++d) {
    if (pb.n[d] == 1) continue;
    const auto l = static_cast<std::size_t>(lead);
    if (lead < 0 || (crop ? pb.n[d] < pb.n[l] : pb.n[d] > pb.n[l])) lead = static_cast<int>(d);
  }
  return lead;
}

/// The combination with square-only: one size for every non-unit dimension, taken from the list of the
/// lead dimension.
std::vector<Tuple> square_tuples(const Problem& pb, const std::array<std::vector<index_t>, 3>& lists,
                                 wide_t target, TotalWindow tw, bool crop, std::size_t w) {
  const int lead = lead_dimension(pb, crop);
  ProximityWindow window(w);
  if (lead < 0) { // a 1x1x1 problem
    window.offer({0, {1, 1, 1}});
    return window.sorted();
  }
  for (index_t s : lists[static_cast<std::size_t>(lead)]) {
    Tuple t;
    wide_t e = 1;
    bool ok = true;
    for (int d = 0; d < 3; ++d) {
      if (pb.n[d] == 1) continue;
      // A kept dimension pins the side; explicit parities of every dimension must hold.
      if (pb.kept[d] && pb.n[d] != s) ok = false;
      if (pb.parity[d] == Parity::Even && s % 2 != 0) ok = false;
      if (pb.parity[d] == Parity::Odd && s % 2 == 0) ok = false;
      t.v[static_cast<std::size_t>(d)] = s;
      e *= s;
    }
    if (!ok || e < tw.lo || e > tw.hi) continue;
    t.distance = e > target ? e - target : target - e;
    window.offer(t);
  }
  return window.sorted();
}

/// Number of distinct primes of {2, 3, 5, 7, 11} dividing m (input of the rotation tree).
int distinct_primes_11(index_t m) {
  int p = 0;
  for (index_t q : {2, 3, 5, 7, 11})
    if (m % q == 0) ++p;
  return p;
}

/// The decision tree of docs/fft_advisor.md#rotation-and-transposition: true when a 2D candidate
/// should be stored with X and Y swapped.
bool rotation_swaps(index_t x, index_t y, const Profile& profile, Precision precision) {
  const int kx = kernel_estimate(x, profile, precision), ky = kernel_estimate(y, profile, precision);
  const int px = distinct_primes_11(x), py = distinct_primes_11(y);
  const double r = static_cast<double>(std::max(x, y)) / static_cast<double>(std::min(x, y));
  const bool y_even = y % 2 == 0;
  if (x % 2 != 0) return (kx <= 1 && x <= y && y_even && r <= 35) || (kx <= 1 && x > y) || kx > 1;
  if (ky <= 1)
    return (kx <= 1 && !y_even && py <= 1) || (kx > 1 && py <= 1 && r > 35000) ||
           (kx > 1 && py > 1 && !y_even && r > 10) || (kx > 1 && py > 1 && y_even);
  return px <= 1 && py > 2 && (ky > 3 || r > 100000);
}

/// The request and, with transposition, every distinct permutation of its non-unit dimensions.
std::vector<Problem> problems(const AdvisorRequest& req) {
  Problem base;
  for (int d = 0; d < 3; ++d) {
    base.n[static_cast<std::size_t>(d)] = req.size[d];
    base.parity[static_cast<std::size_t>(d)] = req.parity[static_cast<std::size_t>(d)];
    base.kept[static_cast<std::size_t>(d)] = detail::dimension_kept(req, d);
  }
  if (!req.allow_transposition) return {base};
  const int rank = req.size.rank();
  std::vector<int> order(static_cast<std::size_t>(rank));
  for (int i = 0; i < rank; ++i) order[static_cast<std::size_t>(i)] = i;
  std::vector<Problem> out;
  std::set<std::tuple<std::array<index_t, 3>, std::array<Parity, 3>, std::array<bool, 3>>> seen;
  do {
    Problem p = base;
    for (int i = 0; i < rank; ++i) {
      const auto src = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
      p.n[static_cast<std::size_t>(i)] = base.n[src];
      p.parity[static_cast<std::size_t>(i)] = base.parity[src];
      p.kept[static_cast<std::size_t>(i)] = base.kept[src];
      p.origin[static_cast<std::size_t>(i)] = static_cast<int>(src);
    }
    if (seen.insert({p.n, p.parity, p.kept}).second) out.push_back(p);
  } while (std::next_permutation(order.begin(), order.end()));
  return out;
}

struct SizeTuple {
  Extent size;
  bool rotated = false;
  friend bool operator==(const SizeTuple& a, const SizeTuple& b) {
    return a.size == b.size && a.rotated == b.rotated;
  }
};

/// Candidates and combination (docs/fft_advisor.md#recommendation-algorithm) for one precision and
/// kind: the proximity-window tuples of every permutation, rotated where the tree says so. Sets
/// `why` and returns nothing when no tuple exists.
std::vector<SizeTuple> size_tuples(const AdvisorRequest& req, const Profile& profile, Precision precision,
                                   Kind kind, std::string& why) {
  const Resize resize = detail::effective_resize(req);
  const auto pct = detail::change_micro_pct(req);
  const auto w = static_cast<std::size_t>(detail::proximity_window(req));
  const wide_t target = static_cast<wide_t>(req.size.x) * req.size.y * req.size.z;
  std::vector<SizeTuple> out;
  for (const Problem& pb : problems(req)) {
    std::array<std::vector<index_t>, 3> lists;
    std::array<index_t, 3> caps{1, 1, 1};
    bool empty = false;
    for (std::size_t d = 0; d < 3 && !empty; ++d) {
      const auto c = detail::dimension_candidates_for(pb.n[d], pb.kept[d], pb.parity[d], resize, pct, profile,
                                                      precision, kind);
      if (c.empty()) {
        const detail::Window win =
            pb.kept[d] ? detail::Window{pb.n[d], pb.n[d]} : detail::dimension_window(pb.n[d], resize, pct);
        why = std::string("no admissible size for dimension ") + dimension_name(pb.origin[d]) + " = " +
              std::to_string(pb.n[d]) + " in [" + std::to_string(win.lo) + ", " + std::to_string(win.hi) +
              "] (profile " + profile.name + ", " + to_string(precision) + " " + to_string(kind) + ")";
        empty = true;
        break;
      }
      lists[d] = filter_dimension(c, pb.n[d], profile, precision);
      caps[d] = pb.kept[d] || pb.n[d] == 1 ? pb.n[d] : detail::dimension_window(pb.n[d], resize, pct).hi;
    }
    if (empty) continue;
    const bool crop = resize == Resize::Crop;
    std::vector<Tuple> tuples;
    if (req.square_only) {
      // Every side comes from the lead dimension's list, so its cap bounds every side (the
      // product of the per-dimension caps would reject squares of non-square requests).
      const int lead = lead_dimension(pb, crop);
      std::array<index_t, 3> square_caps{1, 1, 1};
      for (std::size_t d = 0; d < 3; ++d)
        if (pb.n[d] > 1) square_caps[d] = caps[static_cast<std::size_t>(lead)];
      tuples = square_tuples(pb, lists, target, total_window(pb, resize, pct, square_caps), crop, w);
    } else {
      tuples = closest_tuples(lists, target, total_window(pb, resize, pct, caps), crop, w);
    }
    if (tuples.empty()) {
      why = "no combination of per-dimension sizes lies within the total element window of " + to_string(req.size) +
            (req.square_only ? " (square only)" : "");
      continue;
    }
    for (const Tuple& t : tuples) {
      SizeTuple st;
      st.size = Extent{t.v[0], t.v[1], t.v[2]};
      if (req.allow_rotation && st.size.x > 1 && st.size.y > 1 && st.size.z == 1 &&
          rotation_swaps(st.size.x, st.size.y, profile, precision)) {
        std::swap(st.size.x, st.size.y); // describe() recomputes the kernels for the swapped sizes
        st.rotated = true;
      }
      if (std::find(out.begin(), out.end(), st) == out.end()) out.push_back(st);
    }
  }
  return out;
}

/// The directions to expand for a kind: C2C takes the request's, R2C/C2R imply theirs.
std::vector<Direction> directions_for(const AdvisorRequest& req, Kind kind) {
  if (kind == Kind::C2C) return detail::distinct(req.directions);
  return {detail::implied_direction(kind, Direction::Forward)};
}

} // namespace

std::vector<Candidate> recommend(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch) {
  detail::validate_request(req);
  std::vector<Candidate> out;
  std::optional<Candidate> smallest; // smallest requirement among configurations over the limit
  std::string why;
  for (Precision precision : detail::distinct(req.precisions)) {
    for (Kind kind : detail::distinct(req.kinds)) {
      for (const SizeTuple& t : size_tuples(req, profile, precision, kind, why)) {
        for (Direction direction : directions_for(req, kind)) {
          for (Placement placement : detail::distinct(req.placements)) {
            for (bool batched : detail::distinct(req.batched)) {
              Candidate c;
              c.size = t.size;
              c.rotated = t.rotated;
              c.precision = precision;
              c.kind = kind;
              c.direction = direction;
              c.placement = placement;
              c.batched = batched;
              detail::describe(c, req.size, profile);
              if (detail::fit_batch(c, req.signals, req.mem_limit_bytes, scratch))
                out.push_back(c);
              else if (!smallest || c.required_bytes() < smallest->required_bytes())
                smallest = c;
            }
          }
        }
      }
    }
  }
  if (out.empty()) {
    if (smallest)
      throw NoCandidate("no configuration fits the memory limit of " + std::to_string(*req.mem_limit_bytes) +
                        " bytes; the smallest requirement found is " + std::to_string(smallest->required_bytes()) +
                        " bytes (" + to_string(smallest->size) + ", one signal per execution, " +
                        to_string(smallest->precision) + " " + to_string(smallest->kind) + ")");
    throw NoCandidate(why.empty() ? "no configuration satisfies the request" : why);
  }
  std::sort(out.begin(), out.end(), [&](const Candidate& a, const Candidate& b) {
    return detail::heuristic_less(a, b, req.size, req.tie_break);
  });
  if (out.size() > static_cast<std::size_t>(req.count)) out.resize(static_cast<std::size_t>(req.count));
  return out;
}

Candidate original_configuration(const AdvisorRequest& req, const Profile& profile, const ScratchModel& scratch) {
  detail::validate_request(req);
  const auto has = [](const auto& list, const auto& v) { return std::find(list.begin(), list.end(), v) != list.end(); };
  // The option combination that rule 1 of the ranking ranks first among the allowed ones.
  Candidate c;
  c.size = req.size;
  c.precision = has(req.precisions, Precision::F32) ? Precision::F32 : req.precisions.front();
  c.kind = has(req.kinds, Kind::R2C) ? Kind::R2C : has(req.kinds, Kind::C2R) ? Kind::C2R : Kind::C2C;
  c.direction = c.kind != Kind::C2C ? detail::implied_direction(c.kind, Direction::Forward)
                : has(req.directions, Direction::Forward) ? Direction::Forward
                                                          : req.directions.front();
  c.placement = has(req.placements, Placement::OutOfPlace) ? Placement::OutOfPlace : req.placements.front();
  c.batched = has(req.batched, true);
  detail::describe(c, req.size, profile);
  // The original is measured for comparison even when it exceeds the limit (then with batch 1).
  detail::fit_batch(c, req.signals, req.mem_limit_bytes, scratch);
  return c;
}

} // namespace frost::fft
