#include "frost/mpi/collectives.hpp"

#include <climits>
#include <cstdio>
#include <cstdlib>

#include "frost/core/error.hpp"
#include "mpi_check.hpp"
#include "frost/mpi/split.hpp"

namespace frost::mpi {

namespace {

using detail::check;

std::size_t chunk_elements(std::size_t max_chunk, std::size_t element_bytes) {
  const std::size_t limit = static_cast<std::size_t>(INT_MAX);
  return max_chunk == 0 ? default_chunk_elements(element_bytes) : std::min(max_chunk, limit);
}

/// Root sums in place (MPI_IN_PLACE); the others send their buffer and receive nothing.
template <class T>
void reduce_chunks(T* data, std::size_t count, int root, MPI_Comm comm, std::size_t max_chunk, MPI_Datatype type) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const std::size_t step = chunk_elements(max_chunk, sizeof(T));
  const std::size_t pieces = chunk_count(count, step);
  for (std::size_t i = 0; i < pieces; ++i) {
    const Range r = chunk_range(count, step, i);
    const int n = static_cast<int>(r.size());
    if (rank == root)
      check(MPI_Reduce(MPI_IN_PLACE, data + r.begin, n, type, MPI_SUM, root, comm), "MPI_Reduce");
    else
      check(MPI_Reduce(data + r.begin, nullptr, n, type, MPI_SUM, root, comm), "MPI_Reduce");
  }
}

template <class T>
void allreduce_chunks(T* data, std::size_t count, MPI_Comm comm, std::size_t max_chunk, MPI_Datatype type) {
  const std::size_t step = chunk_elements(max_chunk, sizeof(T));
  const std::size_t pieces = chunk_count(count, step);
  for (std::size_t i = 0; i < pieces; ++i) {
    const Range r = chunk_range(count, step, i);
    check(MPI_Allreduce(MPI_IN_PLACE, data + r.begin, static_cast<int>(r.size()), type, MPI_SUM, comm),
          "MPI_Allreduce");
  }
}

} // namespace

std::size_t default_chunk_elements(std::size_t bytes_per_element) noexcept {
  const std::size_t by_bytes = (std::size_t{256} << 20) / (bytes_per_element == 0 ? 1 : bytes_per_element);
  return std::max<std::size_t>(1, std::min(by_bytes, static_cast<std::size_t>(INT_MAX)));
}

void reduce_sum_in_place(float* data, std::size_t count, int root, MPI_Comm comm, std::size_t max_chunk) {
  reduce_chunks(data, count, root, comm, max_chunk, MPI_FLOAT);
}
void reduce_sum_in_place(double* data, std::size_t count, int root, MPI_Comm comm, std::size_t max_chunk) {
  reduce_chunks(data, count, root, comm, max_chunk, MPI_DOUBLE);
}
void allreduce_sum_in_place(float* data, std::size_t count, MPI_Comm comm, std::size_t max_chunk) {
  allreduce_chunks(data, count, comm, max_chunk, MPI_FLOAT);
}
void allreduce_sum_in_place(double* data, std::size_t count, MPI_Comm comm, std::size_t max_chunk) {
  allreduce_chunks(data, count, comm, max_chunk, MPI_DOUBLE);
}

void broadcast_bytes(void* data, std::size_t bytes, int root, MPI_Comm comm) {
  const std::size_t step = default_chunk_elements(1);
  char* p = static_cast<char*>(data);
  for (std::size_t i = 0, pieces = chunk_count(bytes, step); i < pieces; ++i) {
    const Range r = chunk_range(bytes, step, i);
    check(MPI_Bcast(p + r.begin, static_cast<int>(r.size()), MPI_BYTE, root, comm), "MPI_Bcast");
  }
}

void broadcast(std::string& text, int root, MPI_Comm comm) {
  unsigned long long n = text.size();
  broadcast_bytes(&n, sizeof n, root, comm);
  text.resize(static_cast<std::size_t>(n));
  broadcast_bytes(text.data(), text.size(), root, comm);
}

std::vector<std::string> gather_strings(const std::string& local, int root, MPI_Comm comm) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  FROST_EXPECTS(local.size() <= static_cast<std::size_t>(INT_MAX), "gather_strings: a string longer than INT_MAX");
  const int length = static_cast<int>(local.size());
  std::vector<int> lengths(rank == root ? static_cast<std::size_t>(size) : 0);
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm), "MPI_Gather");
  std::vector<int> offsets(lengths.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    FROST_EXPECTS(total <= static_cast<std::size_t>(INT_MAX), "gather_strings: more than INT_MAX characters in all");
    offsets[i] = static_cast<int>(total);
    total += static_cast<std::size_t>(lengths[i]);
  }
  std::string all(total, '\0');
  check(MPI_Gatherv(local.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, root, comm),
        "MPI_Gatherv");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

void abort_with_message(const std::string& message, int code, MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  const bool running = initialized != 0 && finalized == 0;
  int rank = 0, size = 1;
  if (running) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
  std::fprintf(stderr, "error: rank %d of %d: %s\n", rank, size, message.c_str());
  std::fflush(stderr);
  if (running) MPI_Abort(comm, code);
  std::_Exit(code);
}

} // namespace frost::mpi
