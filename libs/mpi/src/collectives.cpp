#include "frost/mpi/collectives.hpp"

#include <algorithm>
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

void gather_columns(const float* local, std::size_t rows, std::size_t first, std::size_t count, float* full,
                    std::size_t row_length, int root, MPI_Comm comm, std::size_t max_chunk) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  FROST_EXPECTS(first + count <= row_length || count == 0, "gather_columns: a block beyond the row");
  unsigned long long block[2] = {first, count};
  std::vector<unsigned long long> blocks(rank == root ? 2 * static_cast<std::size_t>(size) : 0);
  check(MPI_Gather(block, 2, MPI_UNSIGNED_LONG_LONG, blocks.data(), 2, MPI_UNSIGNED_LONG_LONG, root, comm), "MPI_Gather");
  // Messages of whole rows of a block, at most `step` floats each (at least one row).
  const std::size_t step = chunk_elements(max_chunk, sizeof(float));
  const auto rows_per_message = [&](std::size_t cols) { return std::max<std::size_t>(1, step / std::max<std::size_t>(1, cols)); };
  const int tag = 4711;
  if (rank != root) {
    if (count == 0 || rows == 0) return;
    FROST_EXPECTS(count <= static_cast<std::size_t>(INT_MAX), "gather_columns: a block wider than INT_MAX floats");
    const std::size_t per = rows_per_message(count);
    for (std::size_t r = 0; r < rows; r += per) {
      const std::size_t n = std::min(per, rows - r) * count;
      FROST_EXPECTS(n <= static_cast<std::size_t>(INT_MAX), "gather_columns: a message of more than INT_MAX floats");
      check(MPI_Send(local + r * count, static_cast<int>(n), MPI_FLOAT, root, tag, comm), "MPI_Send");
    }
    return;
  }
  for (std::size_t r = 0; r < rows && count > 0; ++r)
    std::copy(local + r * count, local + (r + 1) * count, full + r * row_length + first);
  for (int k = 0; k < size; ++k) {
    const std::size_t f = blocks[2 * std::size_t(k)], c = blocks[2 * std::size_t(k) + 1];
    if (k == root || c == 0 || rows == 0) continue;
    FROST_EXPECTS(f + c <= row_length, "gather_columns: rank " + std::to_string(k) + " sent a block beyond the row");
    FROST_EXPECTS(row_length <= static_cast<std::size_t>(INT_MAX), "gather_columns: rows longer than INT_MAX floats");
    const std::size_t per = rows_per_message(c);
    for (std::size_t r = 0; r < rows; r += per) {
      const std::size_t n = std::min(per, rows - r);
      // n rows of c floats, row_length apart: received in place.
      MPI_Datatype strided;
      check(MPI_Type_vector(static_cast<int>(n), static_cast<int>(c), static_cast<int>(row_length), MPI_FLOAT, &strided),
            "MPI_Type_vector");
      check(MPI_Type_commit(&strided), "MPI_Type_commit");
      const int rc = MPI_Recv(full + r * row_length + f, 1, strided, k, tag, comm, MPI_STATUS_IGNORE);
      MPI_Type_free(&strided);
      check(rc, "MPI_Recv");
    }
  }
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
