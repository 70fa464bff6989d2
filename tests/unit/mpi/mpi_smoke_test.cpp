// Smoke test of frost_mpi, run by CTest under mpiexec with 2 ranks and once without mpiexec
// (a single-rank run). Plain main: every rank checks, failures are summed over the ranks and
// the exit status is non-zero on every rank when any check failed anywhere.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "frost/mpi/collectives.hpp"
#include "frost/mpi/session.hpp"
#include "frost/mpi/split.hpp"

namespace {

int g_failures = 0;
int g_rank = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "rank %d: FAILED: %s\n", g_rank, what.c_str());
}

} // namespace

int main(int argc, char** argv) {
  using namespace frost::mpi;
  try {
    Session session(&argc, &argv);
    g_rank = session.rank();
    const int size = session.size();
    const int rank = session.rank();
    check(Session::active(), "MPI is active");
    check(size >= 1 && rank >= 0 && rank < size, "rank and size");
    if (argc > 1 && std::string(argv[1]) == "--abort") {
      // The last rank fails while the others wait: all must end, with one clear line.
      if (rank == size - 1) abort_with_message("requested abort", 3);
      session.barrier();
      return 0;
    }

    // 1. split_range: every rank's share, gathered on rank 0, covers [0, n) exactly.
    const std::size_t n = 1000003;
    const Range mine = split_range(n, rank, size);
    const std::vector<std::string> shares =
        gather_strings(std::to_string(mine.begin) + " " + std::to_string(mine.end), 0, session.comm());
    if (session.is_root()) {
      check(shares.size() == static_cast<std::size_t>(size), "one share per rank");
      unsigned long long next = 0;
      for (const std::string& s : shares) {
        unsigned long long b = 0, e = 0;
        check(std::sscanf(s.c_str(), "%llu %llu", &b, &e) == 2, "share text '" + s + "'");
        check(b == next, "shares are contiguous");
        next = e;
      }
      check(next == n, "shares cover all items");
    }
    double items = static_cast<double>(mine.size());
    allreduce_sum_in_place(&items, 1, session.comm());
    check(items == static_cast<double>(n), "allreduce of share sizes is n");

    // 2. Reductions: rank r contributes (r + 1) * i, so the sum is i * size(size+1)/2.
    const double factor = size * (size + 1) / 2.0;
    std::vector<float> f(1000);
    for (std::size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>((rank + 1) * static_cast<int>(i));
    reduce_sum_in_place(f.data(), f.size(), 0, session.comm());
    if (session.is_root()) {
      bool ok = true;
      for (std::size_t i = 0; i < f.size(); ++i) ok = ok && f[i] == static_cast<float>(i * factor);
      check(ok, "float reduce to rank 0");
    } else {
      check(f[10] == static_cast<float>((rank + 1) * 10), "non-root buffer unchanged by reduce");
    }
    // Chunked: 7 elements per call over 1003 elements exercises the loop and the short tail.
    std::vector<double> d(1003);
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = (rank + 1) * static_cast<double>(i);
    reduce_sum_in_place(d.data(), d.size(), 0, session.comm(), 7);
    if (session.is_root()) {
      bool ok = true;
      for (std::size_t i = 0; i < d.size(); ++i) ok = ok && d[i] == i * factor;
      check(ok, "chunked double reduce to rank 0");
    }
    std::vector<double> a(1003);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = (rank + 1) * static_cast<double>(i);
    allreduce_sum_in_place(a.data(), a.size(), session.comm(), 10);
    bool all_ok = true;
    for (std::size_t i = 0; i < a.size(); ++i) all_ok = all_ok && a[i] == i * factor;
    check(all_ok, "chunked double allreduce on every rank");

    // 3. Broadcasts from the last rank (not only from 0).
    const int from = size - 1;
    std::string text = rank == from ? std::string("frost broadcast from rank ") + std::to_string(from) : "";
    broadcast(text, from, session.comm());
    check(text == "frost broadcast from rank " + std::to_string(from), "string broadcast");
    std::vector<double> values;
    if (rank == from) values = {1.5, -2.25, 3e10};
    broadcast(values, from, session.comm());
    check(values == std::vector<double>{1.5, -2.25, 3e10}, "vector broadcast");
    int number = rank == from ? 42 : -1;
    broadcast(number, from, session.comm());
    check(number == 42, "value broadcast");

    // 4. Gather in rank order.
    const std::vector<std::string> names = gather_strings("rank " + std::to_string(rank), 0, session.comm());
    if (session.is_root())
      for (int r = 0; r < size; ++r) check(names.at(static_cast<std::size_t>(r)) == "rank " + std::to_string(r), "gather order");
    else
      check(names.empty(), "gather result only on root");

    // 5. Column blocks of a 13 x 1001 matrix onto the last rank: rank k holds split_range's
    //    columns, value = 1000 * row + column + 0.5; 40 floats per message splits the rows of
    //    every block into several messages.
    const std::size_t rows = 13, cols = 1001;
    const Range mine_cols = split_range(cols, rank, size);
    std::vector<float> block(rows * mine_cols.size());
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < mine_cols.size(); ++c)
        block[r * mine_cols.size() + c] = static_cast<float>(1000 * r + mine_cols.begin + c) + 0.5f;
    for (std::size_t chunk : {std::size_t(0), std::size_t(40)}) {
      std::vector<float> full(rank == from ? rows * cols : 0, -1.0f);
      gather_columns(block.data(), rows, mine_cols.begin, mine_cols.size(), full.data(), cols, from, session.comm(), chunk);
      if (rank != from) continue;
      bool ok = true;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) ok = ok && full[r * cols + c] == static_cast<float>(1000 * r + c) + 0.5f;
      check(ok, "gather_columns assembles the matrix (chunk " + std::to_string(chunk) + ")");
    }

    double failures = g_failures;
    allreduce_sum_in_place(&failures, 1, session.comm());
    if (session.is_root())
      std::printf("frost_mpi smoke test on %d rank(s): %s\n", size, failures == 0 ? "passed" : "FAILED");
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    abort_with_message(std::string("smoke test: ") + e.what(), 1);
  }
}
