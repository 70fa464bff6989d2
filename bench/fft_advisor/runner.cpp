// frost_bench_fft_advisor: measuring the columns of one problem side by side
// (docs/fft_advisor.md#gpu-validation: original and advised configurations in the same process,
// same protocol, same input, alternating order).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "bench_advisor.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::bench {

std::vector<std::string> g1_columns() {
  return {"original", "1 term", "2 terms", "3 terms", "4 terms", "1-4 terms", "heuristic", "portable", "autotuned"};
}
std::vector<std::string> g2_columns() { return {"original", "portable", "heuristic", "tuned"}; }

namespace {

double change_pct(const Extent& to, const Extent& from) {
  return (static_cast<double>(to.elements()) / static_cast<double>(from.elements()) - 1.0) * 100.0;
}

/// The original configuration with another size (the k-term columns keep every other option).
fft::Candidate resized(const fft::Candidate& original, index_t x) {
  fft::Candidate c = original;
  c.size.x = x;
  c.measured.reset();
  c.speedup_vs_original = 0;
  c.change_pct = change_pct(c.size, original.size);
  return c;
}

void measure_cell(Cell& cell, const fft::Candidate& c, const BackendSetup& b, CachingMeasurer& cache,
                  const Extent& request) {
  cell.present = true;
  cell.config = c;
  cell.change_pct = change_pct(c.size, request);
  cell.m = cache.measure(c, b.protocol);
  if (!cell.m.ok()) cell.note = cell.m.error;
}

std::string what(const std::exception& e) { return e.what(); }

} // namespace

Row run_problem(const Problem& p, PartKind kind, const BackendSetup& b, CachingMeasurer& cache,
                Clock::time_point deadline) {
  Row row;
  row.problem = p;
  const std::vector<std::string> cols = kind == PartKind::G1 ? g1_columns() : g2_columns();
  row.cells.resize(cols.size());
  cache.clear();
  const fft::AdvisorRequest& req = p.request;
  const Extent request = req.size;

  fft::AdvisorRequest heur_req = req; // the advisor's defaults: count 10, window max(10, count)
  heur_req.count = 10;
  heur_req.window = 0;
  fft::AdvisorRequest find_req = req;
  find_req.count = b.top;
  find_req.window = b.window;

  // The original first: without it no speedup exists, so a failure ends the problem.
  fft::Candidate original;
  try {
    original = fft::original_configuration(req, *b.heuristic, *b.scratch);
  } catch (const std::exception& e) {
    row.error = "original_configuration: " + what(e);
    return row;
  }

  // Fixed columns (everything but find), as deferred jobs so the order can alternate.
  std::vector<std::function<void()>> fixed;
  fixed.push_back([&] { measure_cell(row.cells[0], original, b, cache, request); });
  const auto heuristic_cell = [&](Cell& cell, const fft::Profile& profile) {
    try {
      const std::vector<fft::Candidate> r = fft::recommend(heur_req, profile, *b.scratch);
      if (r.empty()) {
        cell.note = "no candidate";
        return;
      }
      measure_cell(cell, r.front(), b, cache, request);
    } catch (const fft::NoCandidate& e) {
      cell.note = "no candidate: " + what(e);
    }
  };
  int find_col = -1;
  if (kind == PartKind::G1) {
    for (int k = 1; k <= 5; ++k) { // columns 1..4: k terms; column 5: "1-4 terms"
      const std::optional<index_t> m = nearest_recommended(request.x, k <= 4 ? k : 0);
      Cell& cell = row.cells[static_cast<std::size_t>(k)];
      if (!m) {
        cell.note = "none up to the power-of-two cap";
        continue;
      }
      const index_t size = *m;
      fixed.push_back([&, size, k] { measure_cell(row.cells[static_cast<std::size_t>(k)], resized(original, size), b, cache, request); });
    }
    fixed.push_back([&] { heuristic_cell(row.cells[6], *b.heuristic); });
    fixed.push_back([&] { heuristic_cell(row.cells[7], *b.portable); });
    find_col = 8;
  } else {
    fixed.push_back([&] { heuristic_cell(row.cells[1], *b.portable); });
    fixed.push_back([&] { heuristic_cell(row.cells[2], *b.heuristic); });
    find_col = 3;
  }

  const auto run_find = [&] {
    Cell& cell = row.cells[static_cast<std::size_t>(find_col)];
    fft::Protocol proto = b.protocol;
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    proto.budget_s = std::clamp(left, 1.0, 60.0);
    cache.reset_charge();
    const Clock::time_point t0 = Clock::now();
    try {
      fft::FindResult fr = fft::find(find_req, *b.tuned, *b.scratch, cache, proto, b.top);
      row.find_wall_s = seconds_since(t0);
      // find's cost as if it had measured alone: its own time, with reused measurements charged.
      row.find_cost_s = row.find_wall_s - cache.fresh_s() + cache.charged_s();
      row.find_ranked = static_cast<int>(fr.ranked.size());
      row.find_budget_exhausted = fr.budget_exhausted;
      if (fr.ranked.empty() || fr.selected < 0 || fr.selected >= static_cast<int>(fr.ranked.size())) {
        cell.note = "find returned no selection";
        return;
      }
      const fft::Candidate& sel = fr.ranked[static_cast<std::size_t>(fr.selected)];
      if (sel.measured && sel.measured->ok()) row.tuned_find_ms = sel.measured->median_ms_per_signal;
      cell.present = true;
      cell.config = sel;
      cell.config.measured.reset();
      cell.change_pct = change_pct(sel.size, request);
      if (b.remeasure) {
        // The fastest of T noisy medians is biased low (selection); a fresh measurement of the
        // selected configuration is not.
        try {
          cell.m = b.measurer->measure(cell.config, b.protocol);
        } catch (const std::exception& e) {
          cell.m = fft::Measurement{};
          cell.m.status = "error";
          cell.m.error = e.what();
        }
      } else if (sel.measured) {
        cell.m = *sel.measured;
      } else {
        cell.m.status = "error";
        cell.m.error = "selection not measured";
      }
      if (!cell.m.ok()) cell.note = cell.m.error;
    } catch (const fft::NoCandidate& e) {
      row.find_wall_s = seconds_since(t0);
      cell.note = "find: " + what(e);
    }
  };

  // Alternate: even problems measure the fixed columns first, odd ones start with find.
  if (p.id % 2 == 1) run_find();
  for (auto& job : fixed) job();
  if (p.id % 2 == 0) run_find();

  const Cell& o = row.cells[0];
  row.ok = o.present && o.m.ok() && o.m.median_ms_per_signal > 0;
  if (!row.ok) {
    row.error = "original not measured: " + (o.note.empty() ? std::string("unknown") : o.note);
    return row;
  }
  for (Cell& c : row.cells)
    if (c.present && c.m.ok() && c.m.median_ms_per_signal > 0) c.speedup = o.m.median_ms_per_signal / c.m.median_ms_per_signal;
  if (std::isfinite(row.tuned_find_ms) && row.tuned_find_ms > 0)
    row.tuned_find_speedup = o.m.median_ms_per_signal / row.tuned_find_ms;
  return row;
}

namespace {

std::string csv_text(std::string s) {
  for (char& ch : s)
    if (ch == ',' || ch == '\n' || ch == '\r' || ch == '"') ch = ';';
  return s;
}

std::string col_id(std::string name) {
  for (char& ch : name)
    if (ch == ' ' || ch == '-') ch = '_';
  return name;
}

} // namespace

bool CsvWriter::open(const std::string& path, const Part& part) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  owner_ = std::shared_ptr<std::FILE>(f, [](std::FILE* x) { std::fclose(x); });
  f_ = f;
  std::fprintf(f_, "id,label,x,y,z,signals,precision,kind,direction,placement,batched,resize,max_change_pct,square");
  for (const std::string& c : part.columns) {
    const std::string id = col_id(c);
    std::fprintf(f_, ",%s_size,%s_batch,%s_change_pct,%s_ms_per_signal,%s_ms_per_exec,%s_std_ms,%s_samples,%s_plan_ms,"
                     "%s_scratch_bytes,%s_speedup,%s_status",
                 id.c_str(), id.c_str(), id.c_str(), id.c_str(), id.c_str(), id.c_str(), id.c_str(), id.c_str(),
                 id.c_str(), id.c_str(), id.c_str());
  }
  std::fprintf(f_, ",find_wall_s,find_cost_s,find_ranked,find_budget_exhausted,tuned_find_ms,tuned_find_speedup,error\n");
  std::fflush(f_);
  return true;
}

void CsvWriter::write(const Row& row) {
  if (!f_) return;
  const fft::AdvisorRequest& r = row.problem.request;
  const fft::Kind kind = r.kinds.empty() ? fft::Kind::R2C : r.kinds.front();
  const fft::Direction dir = kind == fft::Kind::R2C   ? fft::Direction::Forward
                             : kind == fft::Kind::C2R ? fft::Direction::Inverse
                             : r.directions.empty()   ? fft::Direction::Forward
                                                      : r.directions.front();
  std::fprintf(f_, "%d,%s,%lld,%lld,%lld,%lld,%s,%s,%s,%s,%s,%s,%s,%d", row.problem.id,
               csv_text(row.problem.label).c_str(), static_cast<long long>(r.size.x), static_cast<long long>(r.size.y),
               static_cast<long long>(r.size.z), static_cast<long long>(r.signals),
               fft::to_string(r.precisions.empty() ? fft::Precision::F32 : r.precisions.front()).c_str(),
               fft::to_string(kind).c_str(), fft::to_string(dir).c_str(),
               fft::to_string(r.placements.empty() ? fft::Placement::OutOfPlace : r.placements.front()).c_str(),
               (r.batched.empty() || r.batched.front()) ? "yes" : "no",
               r.resize == fft::Resize::Pad ? "pad" : r.resize == fft::Resize::Crop ? "crop" : "keep",
               r.max_change_pct ? std::to_string(*r.max_change_pct).c_str() : "unlimited", r.square_only ? 1 : 0);
  for (const Cell& c : row.cells) {
    if (!c.present) {
      std::fprintf(f_, ",,,,,,,,,,,absent");
      continue;
    }
    const bool ok = c.m.ok();
    std::fprintf(f_, ",%s,%lld,%.4f,", fft::to_string(c.config.size).c_str(),
                 static_cast<long long>(c.config.batched ? c.config.batch : 1), c.change_pct);
    if (ok)
      std::fprintf(f_, "%.6g,%.6g,%.4g,%d,%.4g,%zu,", c.m.median_ms_per_signal, c.m.ms_per_exec, c.m.std_ms_per_signal,
                   c.m.samples, c.m.plan_ms, c.m.plan_bytes_actual);
    else
      std::fprintf(f_, ",,,,,,");
    if (std::isfinite(c.speedup)) std::fprintf(f_, "%.4f", c.speedup);
    std::fprintf(f_, ",%s", ok ? "ok" : csv_text("error: " + c.m.error).c_str());
  }
  const auto num = [&](double v) {
    if (std::isfinite(v)) std::fprintf(f_, ",%.6g", v);
    else std::fprintf(f_, ",");
  };
  num(row.find_wall_s);
  num(row.find_cost_s);
  std::fprintf(f_, ",%d,%d", row.find_ranked, row.find_budget_exhausted ? 1 : 0);
  num(row.tuned_find_ms);
  num(row.tuned_find_speedup);
  std::fprintf(f_, ",%s\n", csv_text(row.error).c_str());
  std::fflush(f_);
}

} // namespace frost::bench
