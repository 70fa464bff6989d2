#include "session_command.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <sys/stat.h>

#include "batch.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/motion_session/motion_record.hpp"
#include "frost/motion_session/session_loop.hpp"
#include "frost/session/fingerprint.hpp"
#include "process_movie.hpp"

namespace frost::movie_align {

namespace {

constexpr const char* kSession = "Live session (docs/session.md)";

/// Options that do not change a movie's outputs: left out of the parameter hash.
const std::set<std::string>& unhashed_options() {
  static const std::set<std::string> names = {
      "-i",          "--session", "--watch",    "--watch-timeout", "--poll",     "--overwrite",
      "--retry-failed", "--journal-mode", "--device", "--thr", "--verbose", "--progress", "--storage",
      "--gpu-mem-fraction", "--low-memory", "--tune", "--tuning-cache"};
  return names;
}

void make_parent_folder(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) throw_input_error(parent.string(), "cannot create the output folder: " + ec.message());
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0;
}

} // namespace

void define_session_options(cli::Params& p) {
  p.text_optional("--session", "live session folder (journal, records.jsonl, micrographs.star, report.html): -i "
                               "may then be a folder or a quoted glob ('Movies/*.tiff'), and every movie is "
                               "aligned exactly once across runs")
      .meta("DIR").in_section(kSession);
  p.flag("--watch", "follow the input: align movies as they are written, until --watch-timeout passes with no new "
                    "complete movie").in_section(kSession);
  p.real("--watch-timeout", 600.0, "seconds without a new complete movie that end a --watch session")
      .at_least(0).in_section(kSession);
  p.flag("--poll", "scan the input folder instead of inotify (network file systems)").in_section(kSession);
  p.flag("--retry-failed", "align the movies a session recorded as failed again").in_section(kSession);
  p.choice("--journal-mode", "wal", {"wal", "delete"},
           "SQLite journal mode of the session: wal (one host; readers beside the writers) or delete (a session "
           "folder that processes on several hosts share over a network file system)")
      .in_section(kSession);
}

bool is_session_run(const cli::Params& p) { return p.given("--session"); }

void validate_session_options(const cli::Params& p, const OutputPaths& pattern) {
  if (!is_session_run(p)) {
    for (const char* name : {"--watch", "--watch-timeout", "--poll", "--retry-failed", "--journal-mode"})
      if (p.given(name)) throw_usage_error(std::string(name) + " needs --session DIR");
    return;
  }
  if (is_movie_list(p.get_text("-i")))
    throw_usage_error("--session: -i takes a folder, a quoted glob or a movie, not a movie list");
  check_batch_patterns(pattern);
}

std::string session_parameter_hash(const cli::Params& p) {
  std::vector<std::pair<std::string, std::string>> values;
  for (const cli::Param& d : p.declared()) {
    if (unhashed_options().count(d.name) || !p.given(d.name)) continue;
    std::string v;
    if (d.type == cli::ParamType::Flag) {
      v = "on";
    } else if (d.type == cli::ParamType::Ints || d.type == cli::ParamType::Reals) {
      for (double x : p.get_reals(d.name)) v += std::to_string(x) + " ";
    } else {
      v = p.get_text(d.name);
    }
    values.emplace_back(d.name, v);
  }
  return session::parameter_hash(std::move(values));
}

int run_session_command(const cli::Params& p, const std::vector<motion::MotionBackend*>& backends,
                        const std::vector<std::string>& devices, const AlignOptions& options, OutputPaths pattern) {
  motion_session::SessionSettings s;
  s.input = p.get_text("-i");
  s.dir = p.get_text("--session");
  s.watch = p.flag_value("--watch");
  s.watch_timeout_s = p.get_real("--watch-timeout");
  s.poll = p.flag_value("--poll");
  s.journal.overwrite = options.overwrite;
  s.journal.retry_failed = p.flag_value("--retry-failed");
  s.journal.wal = p.get_text("--journal-mode") == "wal";
  s.parameter_hash = session_parameter_hash(p);
  s.devices = devices;
  if (options.align.pixel_size) {
    s.optics.original_pixel_size_A = *options.align.pixel_size;
    s.optics.micrograph_pixel_size_A = s.optics.original_pixel_size_A * options.align.read.bin;
  } else { // the movies' own pixel size, from their records (rewrite_session_summary)
    s.optics.original_pixel_size_A = 0;
    s.optics.micrograph_pixel_size_A = options.align.read.bin;
  }
  s.optics.voltage_kV = options.align.dose.voltage_kv;
  if (output_files(pattern, false).empty()) {
    pattern.micrograph = s.dir + "/micrographs/{movie}.mrc";
    pattern.relion_motion = s.dir + "/motion/{movie}.star";
  }

  // The gain and defect copies are shared by every movie: the first worker to need them writes them.
  std::mutex copies;
  bool copies_in_progress = false;
  // One loader per worker: a GPU worker loads its next movie while the current one aligns.
  std::vector<std::unique_ptr<motion::LoadAhead>> loaders;
  for (motion::MotionBackend* b : backends) loaders.push_back(std::make_unique<motion::LoadAhead>(options.align, *b));
  s.claim_ahead = !loaders.empty() && loaders.front()->ahead();
  // Each worker writes one movie while it aligns the next (on a GPU the host work then overlaps the
  // device work; on the CPU at least the file system waits do).
  s.write_behind = true;
  const motion_session::ProcessMovie process = [&](int worker, const std::string& movie, const std::string& next,
                                                   session::MovieRecord& r) -> motion_session::FinishMovie {
    OutputPaths out = outputs_for_movie(pattern, movie);
    {
      std::lock_guard<std::mutex> lock(copies);
      const bool missing = (!out.gain_copy.empty() && !file_exists(out.gain_copy)) ||
                           (!out.defects_copy.empty() && !file_exists(out.defects_copy));
      out.write_reference_copies = missing && !copies_in_progress;
      copies_in_progress = copies_in_progress || out.write_reference_copies;
    }
    struct CopiesDone { // a failed movie leaves the copies to the next one
      std::mutex& m; bool& flag; bool mine;
      ~CopiesDone() { if (mine) { std::lock_guard<std::mutex> lock(m); flag = false; } }
    };
    // Held until the movie is written (or dropped unwritten).
    auto copies_done = std::make_shared<CopiesDone>(CopiesDone{copies, copies_in_progress, out.write_reference_copies});
    for (const NamedPath& f : output_files(out, true)) make_parent_folder(f.path);
    // The record that the write half fills: the loop hands it to the FinishMovie.
    auto record = std::make_shared<session::MovieRecord*>(&r);
    MovieHooks hooks;
    hooks.render = motion_session::session_render_request;
    // The quality numbers come with the sums, made by the worker's backend where the sums are.
    hooks.inspect = [record](const motion::LoadedMovie& m, const motion::MovieAlignment& a) {
      motion_session::fill_motion_fields(**record, m, a);
    };
    std::function<MovieSummary()> write =
        align_for_writing(movie, *loaders[static_cast<std::size_t>(worker)], options, out, hooks, next);
    return [record, copies_done, write = std::move(write), out](session::MovieRecord& rec) {
      *record = &rec;
      const MovieSummary summary = write();
      rec.timings_s.emplace_back("quality", summary.inspect_seconds);
      rec.timings_s.emplace_back("write", summary.write_seconds - summary.inspect_seconds);
      rec.timings_s.emplace_back("total", summary.seconds);
      rec.micrograph = out.micrograph;
      rec.micrograph_nodw = out.micrograph_nodw;
      rec.motion_star = out.relion_motion;
      rec.power_spectrum = out.psd;
      if (!out.micrograph.empty()) {
        struct stat st {};
        if (::stat(out.micrograph.c_str(), &st) == 0) rec.micrograph_bytes = static_cast<std::int64_t>(st.st_size);
      }
    };
  };

  const motion_session::SessionResult result = motion_session::run_session(s, process);
  std::printf("session %s: %d aligned, %d failed in this run; %lld done, %lld failed in the session\n",
              s.dir.c_str(), result.done, result.failed, result.journal_done, result.journal_failed);
  return result.exit_code;
}

} // namespace frost::movie_align
