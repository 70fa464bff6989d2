// frost_bench_movie_formats: the formats people collect, at MRC speed? One synthetic K3-size
// counting movie (5760x4092x30 by default) as MRC mode 0, LZW TIFF and Deflate TIFF (libtiff's
// tiffcp compresses an uncompressed TIFF written with libtiff from the MRC's bytes). For each:
//  - decode: the stored-frame path of MovieReader (what the GPU backend uploads) on 1, 2, 8 and 16
//    threads, GB/s of decoded 8-bit frames, in process;
//  - one frost_movie_align process (GPU, global + local, dose-weighted sum written), best of R,
//    with its Load stage;
//  - a stream: one frost_movie_align process over a list of S copies (hard links), the cost of one
//    more movie = (stream wall - single wall) / (S - 1);
//  - MotionCor3 on the same file and on the same copies (-Serial 1) when $FROST_MOTIONCOR3 names it.
// EER rows (--eer, default 4096x4096x40, Falcon 4i class): a synthetic counting movie of that size as
// MRC mode 0, and the same counts as EER with G raw frames per fraction (frost_simulate's splitting,
// sim::split_into_eer_frames), rendered at 4K (u = 1) and 8K (u = 2); MotionCor3 -InEer with
// -EerSampling and an -FmIntFile of the same grouping. EER decode columns are host renders
// (MovieReader::read_frame) in GB/s of one byte per rendered pixel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../common/bench_main.hpp"
#include "bench_movie.hpp"
#include "frost/core/error.hpp"
#include "frost/io/eer_writer.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/simulate/eer_movie.hpp"
#include "tiff_copy.hpp"

namespace frost::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Options {
  std::string workdir = "bench-movie-formats";
  int x = 5760, y = 4092, frames = 30;
  int repeats = 2, stream = 10, gpu = 0;
  int eer_x = 4096, eer_y = 4096, eer_fractions = 40, eer_group = 25; ///< eer_fractions 0: no EER rows
  std::vector<int> threads = {1, 2, 8, 16};
  std::string only; ///< --formats: comma-separated rows to run (empty: all)
  std::string motioncor3;
};

void usage() {
  std::printf("usage: frost_bench_movie_formats [--workdir DIR] [--size XxYxN] [--repeats R] [--stream S]\n"
              "                                 [--gpu ID] [--threads 1,2,8,16] [--eer XxYxF|none] [--eer-group G]\n"
              "                                 [--formats mrc,lzw,zip,mrc4k,eer4k,eer8k]\n"
              "  MotionCor3 runs beside frost when $FROST_MOTIONCOR3 names its executable; tiffcp must be on PATH.\n");
}

Options parse(int argc, char** argv) {
  Options o;
  if (const char* m = std::getenv("FROST_MOTIONCOR3")) o.motioncor3 = m;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw_usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--workdir") o.workdir = value();
    else if (a == "--size") {
      if (std::sscanf(value().c_str(), "%dx%dx%d", &o.x, &o.y, &o.frames) != 3) throw_usage_error("--size XxYxN");
    } else if (a == "--eer") {
      const std::string v = value();
      if (v == "none") o.eer_fractions = 0;
      else if (std::sscanf(v.c_str(), "%dx%dx%d", &o.eer_x, &o.eer_y, &o.eer_fractions) != 3)
        throw_usage_error("--eer XxYxF or none");
    } else if (a == "--formats") o.only = "," + value() + ",";
    else if (a == "--eer-group") o.eer_group = std::max(1, std::stoi(value()));
    else if (a == "--repeats") o.repeats = std::max(1, std::stoi(value()));
    else if (a == "--stream") o.stream = std::max(0, std::stoi(value()));
    else if (a == "--gpu") o.gpu = std::stoi(value());
    else if (a == "--threads") {
      o.threads.clear();
      std::stringstream ss(value());
      for (std::string t; std::getline(ss, t, ',');) o.threads.push_back(std::stoi(t));
    } else if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else throw_usage_error("unknown option " + a);
  }
  return o;
}

int shell(const std::string& cmd) { return std::system(cmd.c_str()); }

int count_files(const std::string& dir, const std::string& ext) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    n += e.path().extension() == ext;
  return n;
}

/// Best of two wall times of `n` items split over `threads` threads (item t on thread t mod
/// threads); each thread makes its own buffer with make() and calls read(t, buffer).
template <class Make, class Read>
double best_parallel_time(index_t n, int threads, Make make, Read read) {
  double best = 1e30;
  for (int round = 0; round < 2; ++round) {
    const auto t0 = Clock::now();
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k)
      pool.emplace_back([&, k] {
        auto buffer = make();
        for (index_t t = k; t < n; t += threads) read(t, buffer);
      });
    for (std::thread& th : pool) th.join();
    best = std::min(best, since(t0));
  }
  return best;
}

/// GB/s of decoded frames through MovieReader::read_stored (frames split over `threads` threads,
/// each reading whole frames into its own buffer), best of two.
double decode_rate(const std::string& movie, int threads) {
  motion::MovieReadOptions ro;
  ro.threads = threads;
  const motion::MovieReader reader(movie, ro);
  const std::optional<motion::StoredFrames> st = reader.stored_frames();
  if (!st) return -1;
  const index_t n = reader.frame_count();
  const double best = best_parallel_time(
      n, threads, [&] { return std::vector<unsigned char>(static_cast<std::size_t>(st->frame_bytes)); },
      [&](index_t t, std::vector<unsigned char>& buf) { reader.read_stored(t * st->frame_bytes, buf.size(), buf.data()); });
  return static_cast<double>(n * st->frame_bytes) / best / 1e9;
}

/// GB/s of host-rendered EER fractions (one byte per rendered pixel, to compare with 8-bit
/// frames) through MovieReader::read_frame on `threads` threads, best of two.
double eer_render_rate(const std::string& movie, int threads, int upsampling, int group) {
  motion::MovieReadOptions ro;
  ro.threads = threads;
  ro.eer_upsampling = upsampling;
  ro.eer_frames_per_fraction = group;
  const motion::MovieReader reader(movie, ro);
  const index_t n = reader.frame_count(), pixels = reader.frame_shape().total();
  const double best = best_parallel_time(
      n, threads, [&] { return std::vector<float>(static_cast<std::size_t>(pixels)); },
      [&](index_t t, std::vector<float>& frame) { reader.read_frame(t, frame.data()); });
  return static_cast<double>(n * pixels) / best / 1e9;
}

/// The synthetic counting movie `mrc` (mode 0) as EER: G raw frames per frame, 65001, BigTIFF.
void write_eer_copy(const std::string& mrc, const std::string& eer, int group) {
  const Image<float> counts = io::read_stack(mrc).image;
  sim::EerSplit split;
  split.group = group;
  io::EerWriteOptions w;
  split.encoding = io::eer_write_encoding(w);
  const Shape s = counts.shape();
  io::write_eer_tiff(eer, sim::split_into_eer_frames(counts, split), s.x, s.y, w);
}

struct FrostRun {
  double wall = -1, load = -1;
};

FrostRun run_frost(const std::string& input, const std::string& out_root, int gpu, const std::string& extra = "") {
  std::ostringstream cmd;
  cmd << FROST_MOVIE_ALIGN_EXE << " -i " << input << extra << " --sampling 1.0 --oavg '" << out_root << ".mrc' -o '" << out_root
      << ".star' --dose-weight --dose-per-frame 1.0 --overwrite --device " << gpu << " > " << out_root << ".log 2>&1";
  const auto t0 = Clock::now();
  FrostRun r;
  if (shell(cmd.str()) != 0) return r;
  r.wall = since(t0);
  try {
    r.load = meta::MetadataFile::read(out_root + ".star").block("general").get_double("frostTimeLoad");
  } catch (const Error&) { // a list writes one STAR per movie
  }
  return r;
}

/// MotionCor3 on one file (-InMrc/-InTiff/-InEer, `in`) or a folder (-Serial 1 with `suffix`): wall
/// seconds, -1 on failure.
double run_motioncor3(const std::string& exe, const std::string& in, const std::string& input, const std::string& suffix,
                      bool folder, const std::string& extra, const std::string& out, const std::string& log, int gpu) {
  std::ostringstream cmd;
  cmd << exe << " " << in << " " << input;
  if (folder) cmd << " -InSuffix " << suffix << " -Serial 1";
  cmd << extra << " -OutMrc " << out << " -Patch 5 5 -FmDose 1 -PixSize 1 -Gpu " << gpu << " > " << log << " 2>&1";
  const auto t0 = Clock::now();
  const int rc = shell(cmd.str());
  const double wall = since(t0);
  // MotionCor3 may exit 0 having processed nothing: its log's last lines go with the table.
  shell("tail -3 " + log + " | sed 's/^/   mc3: /'");
  return rc == 0 ? wall : -1;
}

struct Format {
  std::string name, file;
  std::string mc3_in = "-InMrc", ext = ".mrc"; ///< MotionCor3's input option, the file suffix
  int eer_upsampling = 0;                        ///< EER rows: u (frost), -EerSampling (MotionCor3)
};

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  fs::create_directories(o.workdir);
  const std::string dir = fs::absolute(o.workdir).string();
  const MovieSize size{"k3", o.x, o.y, o.frames};
  std::printf("# frost_bench_movie_formats: %dx%dx%d counts, GPU %d, %d repeats, stream of %d; MotionCor3: %s\n", o.x,
              o.y, o.frames, o.gpu, o.repeats, o.stream, o.motioncor3.empty() ? "not given" : o.motioncor3.c_str());
  const std::string mrc = dir + "/movie.mrc", plain = dir + "/plain.tif";
  write_synthetic_movie(mrc, size, 1.0);
  write_tiff_copy(mrc, plain);
  std::vector<Format> formats = {{"mrc", mrc}};
  for (const char* c : {"lzw", "zip"}) {
    const std::string f = dir + "/movie_" + c + ".tif";
    if (shell("tiffcp -c " + std::string(c) + " " + plain + " " + f) != 0)
      std::printf("# tiffcp -c %s failed or is not on PATH: %s skipped\n", c, c);
    else formats.push_back({c, f, "-InTiff", ".tif"});
  }
  fs::remove(plain);
  std::string fmint;
  if (o.eer_fractions > 0) {
    const std::string mrc4k = dir + "/falcon.mrc", eer = dir + "/falcon.eer";
    write_synthetic_movie(mrc4k, MovieSize{"falcon", o.eer_x, o.eer_y, o.eer_fractions}, 1.0);
    const auto t0 = Clock::now();
    write_eer_copy(mrc4k, eer, o.eer_group);
    std::printf("# EER: %dx%d, %d fractions of %d raw frames, written in %.1f s\n", o.eer_x, o.eer_y, o.eer_fractions,
                o.eer_group, since(t0));
    fmint = dir + "/fmint.txt";
    std::ofstream(fmint) << o.eer_fractions * o.eer_group << " " << o.eer_group << " " << 1.0 / o.eer_group << "\n";
    formats.push_back({"mrc4k", mrc4k});
    formats.push_back({"eer4k", eer, "-InEer", ".eer", 1});
    formats.push_back({"eer8k", eer, "-InEer", ".eer", 2});
  }

  std::printf("%-5s %9s", "fmt", "MB");
  for (int t : o.threads) std::printf(" %7s", ("dec" + std::to_string(t)).c_str());
  std::printf(" %8s %7s %9s %9s %9s\n", "frost_s", "load_s", "frost_per", "mc3_s", "mc3_per");
  for (const Format& f : formats) {
    if (!o.only.empty() && o.only.find("," + f.name + ",") == std::string::npos) continue;
    const double mb = static_cast<double>(fs::file_size(f.file)) / 1e6;
    const bool eer = f.eer_upsampling > 0;
    const std::string frost_extra =
        eer ? " --eer-group " + std::to_string(o.eer_group) + " --eer-upsampling " + std::to_string(f.eer_upsampling) : "";
    const std::string mc3_extra =
        eer ? " -EerSampling " + std::to_string(f.eer_upsampling) + " -FmIntFile " + fmint : "";
    std::vector<double> rates;
    for (int t : o.threads)
      rates.push_back(eer ? eer_render_rate(f.file, t, f.eer_upsampling, o.eer_group) : decode_rate(f.file, t));
    FrostRun best;
    for (int r = 0; r < o.repeats; ++r) {
      const FrostRun one = run_frost(f.file, dir + "/out_" + f.name, o.gpu, frost_extra);
      if (one.wall > 0 && (best.wall < 0 || one.wall < best.wall)) best = one;
    }
    // The stream: hard links (real directory entries, which MotionCor3's -Serial needs).
    double frost_per = -1, mc3_single = -1, mc3_per = -1;
    const std::string sdir = dir + "/stream_" + f.name, ext = f.ext;
    if (o.stream >= 2) {
      fs::remove_all(sdir);
      fs::create_directories(sdir + "/out");
      std::ofstream list(sdir + "/movies.txt");
      for (int i = 0; i < o.stream; ++i) {
        const std::string link = sdir + "/m" + std::to_string(i) + ext;
        fs::create_hard_link(f.file, link);
        list << link << "\n";
      }
      list.close();
      const auto t0 = Clock::now();
      const FrostRun all = run_frost(sdir + "/movies.txt", sdir + "/out/{movie}", o.gpu, frost_extra);
      const double wall = since(t0);
      const int sums = count_files(sdir + "/out", ".mrc");
      std::printf("   frost stream of %d: %.3f s, %d sums written\n", o.stream, wall, sums);
      if (sums < o.stream) shell("tail -5 '" + sdir + "/out/{movie}.log' | sed 's/^/   frost: /'");
      if (all.wall > 0 && best.wall > 0) frost_per = (wall - best.wall) / (o.stream - 1);
    }
    if (!o.motioncor3.empty()) {
      for (int r = 0; r < o.repeats; ++r) {
        const double w = run_motioncor3(o.motioncor3, f.mc3_in, f.file, f.ext, false, mc3_extra,
                                        dir + "/mc3_" + f.name + ".mrc", dir + "/mc3_" + f.name + ".log", o.gpu);
        if (w > 0 && (mc3_single < 0 || w < mc3_single)) mc3_single = w;
      }
      if (o.stream >= 2 && mc3_single > 0) {
        fs::create_directories(sdir + "/mc3");
        const double w = run_motioncor3(o.motioncor3, f.mc3_in, sdir + "/", f.ext, true, mc3_extra, sdir + "/mc3/",
                                        dir + "/mc3_stream_" + f.name + ".log", o.gpu);
        std::printf("   mc3 stream of %d: %.3f s, %d sums written\n", o.stream, w, count_files(sdir + "/mc3", ".mrc"));
        if (w > 0) mc3_per = (w - mc3_single) / (o.stream - 1);
      }
    }
    fs::remove_all(sdir);
    std::printf("%-5s %9.1f", f.name.c_str(), mb);
    for (double r : rates) std::printf(" %7.2f", r);
    std::printf(" %8.3f %7.3f %9.3f %9.3f %9.3f\n", best.wall, best.load, frost_per, mc3_single, mc3_per);
    std::fflush(stdout);
  }
  std::printf("# decN: GB/s of decoded 8-bit frames on N threads (stored-frame path, in process; EER: host renders,\n"
              "# one byte per rendered pixel); frost_s: one\n"
              "# frost_movie_align process, best of %d (load_s its Load stage: decode + upload); frost_per: one more\n"
              "# movie of a list of %d; mc3_s / mc3_per: MotionCor3 -Patch 5 5 the same way (-Serial 1 over a folder)\n",
              o.repeats, o.stream);
  return 0;
}

} // namespace
} // namespace frost::bench

int main(int argc, char** argv) {
  return frost::bench::bench_main("frost_bench_movie_formats", [&] { return frost::bench::run(argc, argv); });
}
