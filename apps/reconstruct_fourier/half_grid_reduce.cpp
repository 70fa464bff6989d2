#include "half_grid_reduce.hpp"

#if FROST_HAVE_MPI
#include "frost/mpi/collectives.hpp"
#include "frost/mpi/session.hpp"
#endif

namespace frost::app {

void reduce_to_root(std::vector<recon::HalfGrid>& grids) {
#if FROST_HAVE_MPI
  if (!mpi::Session::active()) return;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) return;
  for (auto& g : grids) {
    mpi::reduce_sum_in_place(g.data.data(), g.data.size(), 0);
    mpi::reduce_sum_in_place(g.weight.data(), g.weight.size(), 0);
  }
#else
  (void)grids;
#endif
}

} // namespace frost::app
