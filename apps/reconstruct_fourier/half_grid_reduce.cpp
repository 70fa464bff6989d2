#include "half_grid_reduce.hpp"

#include "frost/reconstruction/grid_support.hpp"

#if FROST_HAVE_MPI
#include "frost/mpi/collectives.hpp"
#include "frost/mpi/session.hpp"
#endif

namespace frost::app {

void reduce_to_root(std::vector<recon::HalfGrid>& grids, double support_radius, std::size_t chunk_doubles) {
#if FROST_HAVE_MPI
  if (!mpi::Session::active()) return;
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size == 1) return;
  // Packed chunks of 16 MiB: small enough to stay in cache between packing, the reduction and the
  // unpacking, large enough for MPI's bandwidth. Not zeroed: every value is packed before use.
  recon::GridValues buffer;
  for (auto& g : grids)
    for (const recon::SupportChunk& c :
         recon::support_chunks(g.M, support_radius, chunk_doubles > 0 ? chunk_doubles : std::size_t{2} << 20)) {
      buffer.resize(c.doubles);
      recon::pack_support(g, support_radius, c, buffer.data());
      mpi::reduce_sum_in_place(buffer.data(), buffer.size(), 0);
      if (rank == 0) recon::unpack_support(g, support_radius, c, buffer.data());
    }
#else
  (void)grids;
  (void)support_radius;
  (void)chunk_doubles;
#endif
}

} // namespace frost::app
