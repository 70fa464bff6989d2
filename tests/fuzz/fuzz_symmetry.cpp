// Fuzz target: symmetry names (`--sym`: Cn, Cnv, Cnh, Sn, Dn, Dnv, Dnh, T, Td, Th, O, Oh, I1-I5,
// In, Inh...). A name that parses must give a group: closed under products, with orthogonal
// elements, the identity first.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "frost/geometry/symmetry.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  if (size > 64) return 0; // names are short; long ones only repeat the digit parsing
  const std::string name(reinterpret_cast<const char*>(data), size);
  fuzz::expect_errors_only([&] {
    const geom::SymmetryGroup group = geom::parse_symmetry(name);
    bool ok = group.order() >= 1;
    for (int i = 0; ok && i < group.order() && i < 240; ++i) {
      const geom::Mat3d& r = group[std::size_t(i)];
      ok = std::abs(std::abs(r.determinant()) - 1.0) < 1e-9;
      for (int j = 0; ok && j < group.order() && group.order() <= 120; ++j)
        ok = group.contains(r * group[std::size_t(j)]);
    }
    if (!ok) {
      std::fprintf(stderr, "fuzz_symmetry: '%s' parsed into something that is not a point group\n", name.c_str());
      std::abort();
    }
  });
  return 0;
}
