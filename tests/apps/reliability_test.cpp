// Reliability of the programs under bad input, interruption and MPI rank faults, measured through
// the built executables on data from frost_simulate and corrupted copies of it:
// * bad-input catalogue, one test per class (truncated file, header claiming more data than the
//   file holds, unsupported mode, NaN/Inf pixels, zero or negative sizes, metadata counts that do
//   not match the stacks, missing columns, unknown symmetry, unreadable gain): the documented exit
//   code (docs/conventions.md#exit-codes: 2 usage, 3 input/format), a message on stderr that names
//   the file (or the option value), no file at the output paths and no AtomicFile temporary
//   (`<output>.frost-tmp-<pid>`) in the output folder;
// * interruption: SIGINT and SIGKILL in the middle of a run and in the middle of writing an output
//   (the output's temporary is made in advance as a full FIFO, so the program blocks inside its
//   write; see interrupt_while_writing): nothing at the output's final path, exit status 130
//   after SIGINT with the temporaries removed, and a rerun completes; batch movie alignment
//   resumes, skipping the movies already finished;
// * MPI: a rank failing on an unreadable image of its share ends the whole 2-rank job with one
//   message and a non-zero exit status, within a timeout (skipped without MPI).
// Every program run has a timeout, so a hang fails the test instead of blocking CI. Each case
// prints what it observed. Runs use --device cpu and --thr 1. Tests named DISABLED_ record open
// findings (see their comments): run them with --gtest_also_run_disabled_tests.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "frost/io/image_io.hpp"
#include "frost/test/log_capture.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

namespace fs = std::filesystem;

constexpr double kTimeout = 60; // seconds for any single program run
constexpr const char* kTmpTag = ".frost-tmp-"; // AtomicFile: <path>.frost-tmp-<pid>

// ---------------------------------------------------------------------------------------------
// Running programs

using test::finish_program;
using test::Outcome;
using test::program_ended;
using test::Running;
using test::since;
using test::slurp;
using test::start_program;

Outcome run(const std::string& command, const std::string& log) { return test::run_program(command, log, kTimeout); }
Outcome finish(Running& r) { return finish_program(r, kTimeout); }

/// Inode of `path`, 0 when absent (a rewrite through AtomicFile gives a new inode).
ino_t inode(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

/// What an interrupted run saw: whether the signal was sent, and for a signal while writing the
/// temporary and whether it was there, with nothing at its final path, when the signal went.
struct Interruption {
  Outcome outcome;
  bool fired = false;
  bool write_trigger = false; ///< the signal was to come while writing an output
  bool mid_write = false; ///< the temporary existed and the final path did not at the signal
  std::string temporary; ///< name of that temporary
  std::string final_path; ///< the output being written
};

/// True when process `pid` has `path` open (/proc/<pid>/fd).
bool holds_open(pid_t pid, const std::string& path) {
  std::error_code ec;
  const fs::path want = fs::canonical(path, ec);
  if (ec) return false;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::error_code link_ec;
    if (fs::read_symlink(e.path(), link_ec) == want) return true;
  }
  return false;
}

/// Runs `command` so that it blocks in the middle of writing `output`, then sends `sig`.
/// AtomicFile writes `<output>.frost-tmp-<pid>`: that name is made in advance, for the child's
/// pid and before it execs, as a FIFO whose buffer this process fills. The program opens it as
/// its temporary and blocks in its first write() to it: deterministically mid-write, with the
/// temporary present and nothing renamed to `output`. The signal goes once the program holds the
/// FIFO open. A FIFO that a SIGKILL leaves behind is a stale temporary like any other.
Interruption interrupt_while_writing(const std::string& command, const std::string& log, const std::string& output,
                                     int sig) {
  Interruption in;
  in.write_trigger = true;
  in.final_path = output;
  int gate[2];
  if (::pipe(gate) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return in;
  }
  Running r = start_program(command, log, gate[0]);
  ::close(gate[0]);
  const std::string tmp = output + kTmpTag + std::to_string(r.pid);
  in.temporary = fs::path(tmp).filename().string();
  int fifo = -1;
  if (::mkfifo(tmp.c_str(), 0644) == 0) fifo = ::open(tmp.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  EXPECT_GE(fifo, 0) << tmp << ": " << std::strerror(errno);
  if (fifo >= 0) {
    const std::vector<char> block(4096, 'x');
    while (::write(fifo, block.data(), block.size()) > 0) {
    } // until EAGAIN: the pipe buffer is full, the program's blocking write() will wait
  }
  EXPECT_EQ(::write(gate[1], "g", 1), 1);
  ::close(gate[1]);
  while (fifo >= 0 && !program_ended(r) && since(r.start) < kTimeout) {
    if (holds_open(r.pid, tmp)) {
      in.mid_write = fs::exists(tmp) && !fs::exists(output);
      in.fired = ::kill(r.pid, sig) == 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  in.outcome = finish(r);
  if (fifo >= 0) ::close(fifo);
  return in;
}

/// Runs `command` and sends `sig` `delay` s after `marker` first appears on its stderr.
Interruption interrupt_mid_run(const std::string& command, const std::string& log, const std::string& marker,
                               double delay, int sig) {
  Interruption in;
  Running r = start_program(command, log);
  while (!program_ended(r) && since(r.start) < kTimeout) {
    if (slurp(log + ".err").find(marker) != std::string::npos) {
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
      if (!program_ended(r)) {
        ::kill(r.pid, sig);
        in.fired = true;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  in.outcome = finish(r);
  return in;
}

/// AtomicFile temporaries in `dir`; only those of process `pid` when given.
std::vector<std::string> temporaries(const std::string& dir, pid_t pid = -1) {
  std::vector<std::string> found;
  if (!fs::is_directory(dir)) return found;
  const std::string tail = kTmpTag + (pid > 0 ? std::to_string(pid) : std::string());
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const std::size_t at = name.find(kTmpTag);
    if (at == std::string::npos) continue;
    if (pid <= 0 || name.compare(at, std::string::npos, tail) == 0) found.push_back(name);
  }
  return found;
}

/// frost's one-line error: "error: <file>: ..." (runtime and input errors) or "<program>: ..."
/// (usage errors); empty when there is none.
std::string error_line(const std::string& err) {
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("error:", 0) == 0) return line;
    const std::size_t colon = line.find(':'), space = line.find(' ');
    if (line.rfind("frost_", 0) == 0 && colon != std::string::npos && colon < space &&
        line.find("(git ") == std::string::npos)
      return line;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Making bad files

void copy(const std::string& from, const std::string& to) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

/// Overwrites 4 bytes at `offset` (host order = the little-endian order frost writes).
template <class T>
void poke(const std::string& path, std::int64_t offset, T value) {
  static_assert(sizeof(T) == 4, "MRC words are 4 bytes");
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(f.good()) << path;
  f.seekp(offset);
  f.write(reinterpret_cast<const char*>(&value), sizeof value);
}

// MRC header words (mrc_header.hpp: byte offsets of nx, ny, nz, mode, nsymbt).
constexpr std::int64_t kNx = 0, kNy = 4, kNz = 8, kMode = 12, kNsymbt = 92, kHeader = 1024;

/// Byte offset of pixel (x, y) of item k in an N x N float32 stack without extended header.
std::int64_t pixel_at(int n, int k, int x, int y) {
  return kHeader + 4 * (std::int64_t(k) * n * n + std::int64_t(y) * n + x);
}
/// Byte offset of voxel (x, y, z) of an N³ float32 map: the pixel (x, y) of section z.
std::int64_t voxel_at(int n, int x, int y, int z) { return pixel_at(n, z, x, y); }

/// `from` with every `what` replaced by `with`, written to `to`.
void replace_all(const std::string& from, const std::string& to, const std::string& what, const std::string& with) {
  std::string text = slurp(from);
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
  std::ofstream(to) << text;
}

/// `from` through `edit(line)`, which may change a line and returns false to drop it.
template <class Edit>
void edit_lines(const std::string& from, const std::string& to, Edit edit) {
  std::istringstream in(slurp(from));
  std::ofstream out(to);
  std::string line;
  while (std::getline(in, line))
    if (edit(line)) out << line << "\n";
}

std::vector<std::string> fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}
/// The line made of fields [first, last) of `line`.
std::string keep_fields(const std::string& line, std::size_t first, std::size_t last) {
  const auto f = fields(line);
  std::string out;
  for (std::size_t i = first; i < std::min(last, f.size()); ++i) out += " " + f[i];
  return out;
}

// ---------------------------------------------------------------------------------------------
// The programs

std::string simulate_cmd(const std::string& args) { return std::string(FROST_SIMULATE_EXE) + " " + args; }
std::string reconstruct_cmd(const std::string& args) {
  return std::string(FROST_RECONSTRUCT_EXE) + " --device cpu --thr 1 --progress none " + args;
}
std::string align_cmd(const std::string& args) {
  return std::string(FROST_ALIGN_EXE) + " --device cpu --thr 1 " + args;
}
std::string movie_cmd(const std::string& args) {
  return std::string(FROST_MOVIE_ALIGN_EXE) + " --device cpu --thr 1 --progress none " + args;
}

/// Small data made once per test process: 20 projections of a 32³ phantom at 2 Å/px
/// (p.mrcs, p.star, p.xmd, p_phantom.mrc) and a 256² x 6 movie with its gain (mv.mrcs, mv_gain.mrc).
class Reliability : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    const Outcome p =
        run(simulate_cmd("--mode projections --box 32 --count 20 --sampling 2 --seed 5 --oroot " + file("p")),
            file("sim_p"));
    ASSERT_EQ(p.exit_code, 0) << p.err;
    const Outcome m = run(simulate_cmd("--mode movie --size 256 256 --frames 6 --gain --seed 3 --oroot " + file("mv")),
                          file("sim_mv"));
    ASSERT_EQ(m.exit_code, 0) << m.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file(const std::string& name) { return dir_->file(name); }
  /// A fresh, empty output folder.
  static std::string out_dir(const std::string& name) {
    const std::string d = file(name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }

  /// <stem>.mrcs, a copy of p.mrcs, with <stem>.star and <stem>.xmd: p.star and p.xmd pointing at it.
  static std::string particle_copy(const std::string& stem) {
    copy(file("p.mrcs"), file(stem + ".mrcs"));
    replace_all(file("p.star"), file(stem + ".star"), "@" + file("p.mrcs"), "@" + file(stem + ".mrcs"));
    replace_all(file("p.xmd"), file(stem + ".xmd"), "@" + file("p.mrcs"), "@" + file(stem + ".mrcs"));
    return file(stem + ".mrcs");
  }
  static std::string movie_copy(const std::string& stem) {
    copy(file("mv.mrcs"), file(stem + ".mrcs"));
    return file(stem + ".mrcs");
  }
  static std::string gain_copy(const std::string& stem) {
    copy(file("mv_gain.mrc"), file(stem + ".mrc"));
    return file(stem + ".mrc");
  }
  static std::string volume_copy(const std::string& stem) {
    copy(file("p_phantom.mrc"), file(stem + ".mrc"));
    return file(stem + ".mrc");
  }

  // One run of a program on (possibly bad) input, with its outputs (and logs) in a fresh folder
  // out_<case_name>.
  struct Case {
    Outcome outcome;
    std::vector<std::string> outputs;
  };
  static Case reconstruct(const std::string& case_name, const std::string& args) {
    const std::string d = out_dir("out_" + case_name);
    Case c{run(reconstruct_cmd(args + " -o " + d + "/map.mrc --halves"), d + "/log"), {d + "/map.mrc"}};
    for (const char* f : {"/map_half1.mrc", "/map_half2.mrc", "/map_fsc.star", "/map_fsc.txt"})
      c.outputs.push_back(d + f);
    return c;
  }
  static Case align(const std::string& case_name, const std::string& args) {
    const std::string d = out_dir("out_" + case_name);
    return {run(align_cmd(args + " -o " + d + "/angles.xmd"), d + "/log"), {d + "/angles.xmd", d + "/angles.star"}};
  }
  static Case movie(const std::string& case_name, const std::string& args) {
    const std::string d = out_dir("out_" + case_name);
    return {run(movie_cmd(args + " --skipLocalAlignment --oavg " + d + "/mic.mrc -o " + d + "/mic.star"), d + "/log"),
            {d + "/mic.mrc", d + "/mic.star"}};
  }
  static std::string volume_args(const std::string& images_xmd, const std::string& volume) {
    return "-i " + images_xmd + " --volume " + volume + " --sampling 30";
  }

  /// The bad-input contract: exit `code`, a one-line message naming every entry of `names`, no
  /// file at the output paths, no AtomicFile temporary in the output folder, no crash, no hang.
  static void expect_rejected(const std::string& what, const Case& c, int code, const std::vector<std::string>& names) {
    const Outcome& o = c.outcome;
    const std::string message = error_line(o.err);
    std::printf("[bad input] %-58s %s (%.2f s): %s\n", what.c_str(), o.status().c_str(), o.seconds,
                message.c_str());
    EXPECT_FALSE(o.timed_out) << what;
    EXPECT_EQ(o.signal, 0) << what << ": crashed\n" << o.err;
    EXPECT_EQ(o.exit_code, code) << what << "\n" << o.err;
    EXPECT_FALSE(message.empty()) << what << ": no error message on stderr\n" << o.err;
    for (const std::string& n : names)
      EXPECT_NE(message.find(n), std::string::npos) << what << ": the message does not name '" << n << "'";
    for (const std::string& out : c.outputs) EXPECT_FALSE(fs::exists(out)) << what << ": " << out << " exists";
    if (!c.outputs.empty()) {
      const auto left = temporaries(fs::path(c.outputs.front()).parent_path().string());
      EXPECT_TRUE(left.empty()) << what << ": temporary " << (left.empty() ? "" : left.front()) << " left behind";
    }
  }

  static test::TempDir* dir_;
};
test::TempDir* Reliability::dir_ = nullptr;

// ---------------------------------------------------------------------------------------------
// Bad-input catalogue

// A file that ends early (cut inside an image or frame, or inside the 1024-byte header), and a
// metadata file cut in the middle of a row: input errors (3) naming the file.
TEST_F(Reliability, TruncatedFilesAreRejected) {
  const std::string stack = particle_copy("cut");
  fs::resize_file(stack, pixel_at(32, 10, 16, 0)); // in the middle of image 11
  expect_rejected("reconstruct: stack cut inside image 11", reconstruct("cut_rec", "-i " + file("cut.star")), 3,
                  {"cut.mrcs", "truncated"});
  expect_rejected("align_significant: stack cut inside image 11",
                  align("cut_al", volume_args(file("cut.xmd"), file("p_phantom.mrc"))), 3, {"cut.mrcs", "truncated"});

  const std::string mv = movie_copy("mv_cut");
  fs::resize_file(mv, pixel_at(256, 3, 0, 100)); // inside frame 4
  expect_rejected("movie_align: movie cut inside frame 4",
                  movie("cut_mv", "-i " + mv + " --gain " + file("mv_gain.mrc")), 3, {"mv_cut.mrcs", "truncated"});

  const std::string vol = volume_copy("vol_cut");
  fs::resize_file(vol, 500); // shorter than the header
  expect_rejected("align_significant: map shorter than its header", align("cut_vol", volume_args(file("p.xmd"), vol)),
                  3, {"vol_cut.mrc", "1024"});

  const std::string star = slurp(file("p.star"));
  const std::size_t row12 = star.find("000012@" + file("p.mrcs"));
  ASSERT_NE(row12, std::string::npos);
  const std::size_t values = star.find(' ', row12); // row 12 keeps its image and a value and a half
  std::ofstream(file("cut_rows.star")) << star.substr(0, values + 18);
  expect_rejected("reconstruct: STAR cut inside row 12", reconstruct("cut_star", "-i " + file("cut_rows.star")), 3,
                  {"cut_rows.star"});
}

// A complete file whose header describes more data: nz doubled, a 1 MiB extended header that
// is not there. Input errors naming the file.
TEST_F(Reliability, HeadersClaimingMoreDataAreRejected) {
  poke<std::int32_t>(particle_copy("nz40"), kNz, 40);
  expect_rejected("reconstruct: stack header nz 40 of 20", reconstruct("nz_rec", "-i " + file("nz40.star")), 3,
                  {"nz40.mrcs", "truncated"});
  expect_rejected("align_significant: stack header nz 40 of 20",
                  align("nz_al", volume_args(file("nz40.xmd"), file("p_phantom.mrc"))), 3, {"nz40.mrcs"});
  poke<std::int32_t>(movie_copy("mv_nz9"), kNz, 9);
  expect_rejected("movie_align: movie header nz 9 of 6", movie("nz_mv", "-i " + file("mv_nz9.mrcs")), 3,
                  {"mv_nz9.mrcs"});
  poke<std::int32_t>(volume_copy("vol_ext"), kNsymbt, 1 << 20);
  expect_rejected("align_significant: map claims a 1 MiB extended header",
                  align("ext_vol", volume_args(file("p.xmd"), file("vol_ext.mrc"))), 3, {"vol_ext.mrc"});
  poke<std::int32_t>(gain_copy("gain_ny"), kNy, 512);
  expect_rejected("movie_align: gain header ny 512 of 256",
                  movie("ny_gain", "-i " + file("mv.mrcs") + " --gain " + file("gain_ny.mrc")), 3, {"gain_ny.mrc"});
}

// Complex (3, 4) and unknown (16) MRC modes: input errors naming the file and the mode.
TEST_F(Reliability, UnsupportedModesAreRejected) {
  poke<std::int32_t>(particle_copy("mode4"), kMode, 4);
  expect_rejected("reconstruct: stack of mode 4 (complex)", reconstruct("mode_rec", "-i " + file("mode4.star")), 3,
                  {"mode4.mrcs", "mode 4"});
  poke<std::int32_t>(volume_copy("vol_mode3"), kMode, 3);
  expect_rejected("align_significant: map of mode 3 (complex)",
                  align("mode_vol", volume_args(file("p.xmd"), file("vol_mode3.mrc"))), 3, {"vol_mode3.mrc", "mode 3"});
  poke<std::int32_t>(movie_copy("mv_mode16"), kMode, 16);
  expect_rejected("movie_align: movie of mode 16", movie("mode_mv", "-i " + file("mv_mode16.mrcs")), 3,
                  {"mv_mode16.mrcs", "mode 16"});
  poke<std::int32_t>(gain_copy("gain_mode4"), kMode, 4);
  expect_rejected("movie_align: gain of mode 4",
                  movie("mode_gain", "-i " + file("mv.mrcs") + " --gain " + file("gain_mode4.mrc")), 3,
                  {"gain_mode4.mrc", "mode 4"});
}

// One NaN or Inf pixel in a particle, a map or a gain: input errors naming the file (a silent
// NaN would end as a NaN map, NaN correlations or a NaN micrograph).
TEST_F(Reliability, NonFinitePixelsAreRejected) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  poke(particle_copy("nan7"), pixel_at(32, 6, 16, 16), nan);
  expect_rejected("reconstruct: NaN in the centre of particle 7", reconstruct("nan_rec", "-i " + file("nan7.star")), 3,
                  {"nan7.mrcs"});
  poke(particle_copy("inf13"), pixel_at(32, 12, 3, 29), inf);
  expect_rejected("reconstruct: +Inf near the corner of particle 13",
                  reconstruct("inf_rec", "-i " + file("inf13.star")), 3, {"inf13.mrcs"});
  expect_rejected("align_significant: NaN in the centre of image 7",
                  align("nan_al", volume_args(file("nan7.xmd"), file("p_phantom.mrc"))), 3, {"nan7.mrcs", "NaN"});
  expect_rejected("align_significant: +Inf in image 13",
                  align("inf_al", volume_args(file("inf13.xmd"), file("p_phantom.mrc"))), 3, {"inf13.mrcs", "Inf"});
  poke(volume_copy("vol_inf"), voxel_at(32, 16, 16, 16), -inf);
  expect_rejected("align_significant: -Inf at the centre of the map",
                  align("inf_vol", volume_args(file("p.xmd"), file("vol_inf.mrc"))), 3, {"vol_inf.mrc", "Inf"});
  poke(gain_copy("gain_nan"), pixel_at(256, 0, 128, 128), nan);
  expect_rejected("movie_align: NaN in the gain",
                  movie("nan_gain", "-i " + file("mv.mrcs") + " --gain " + file("gain_nan.mrc")), 3,
                  {"gain_nan.mrc", "NaN"});
  poke(gain_copy("gain_inf"), pixel_at(256, 0, 7, 200), inf);
  expect_rejected("movie_align: +Inf in the gain",
                  movie("inf_gain", "-i " + file("mv.mrcs") + " --gain " + file("gain_inf.mrc")), 3,
                  {"gain_inf.mrc", "Inf"});
}

// Found here (fixed): frost_movie_align accepted NaN/Inf pixels in float movie frames (exit 0, a
// micrograph holding the NaN). The host frame reader and the device decoder now refuse them,
// naming the frame; the GPU path is covered by the CUDA motion tests.
TEST_F(Reliability, NonFiniteMovieFramesAreRejected) {
  poke(movie_copy("mv_nan"), pixel_at(256, 2, 128, 128), std::numeric_limits<float>::quiet_NaN());
  expect_rejected("movie_align: NaN in frame 3", movie("nan_mv", "-i " + file("mv_nan.mrcs")), 3,
                  {"mv_nan.mrcs", "NaN"});
}

// Sizes of zero or below: in MRC headers (input errors, 3) and on the command line (usage errors,
// 2, naming the option).
TEST_F(Reliability, ZeroOrNegativeSizesAreRejected) {
  poke<std::int32_t>(particle_copy("nx0"), kNx, 0);
  expect_rejected("reconstruct: stack header nx 0", reconstruct("nx0_rec", "-i " + file("nx0.star")), 3, {"nx0.mrcs"});
  poke<std::int32_t>(particle_copy("ny_neg"), kNy, -32);
  expect_rejected("align_significant: stack header ny -32",
                  align("nyneg_al", volume_args(file("ny_neg.xmd"), file("p_phantom.mrc"))), 3, {"ny_neg.mrcs"});
  poke<std::int32_t>(movie_copy("mv_nz0"), kNz, 0);
  expect_rejected("movie_align: movie header nz 0", movie("nz0_mv", "-i " + file("mv_nz0.mrcs")), 3, {"mv_nz0.mrcs"});
  poke<std::int32_t>(gain_copy("gain_nx_neg"), kNx, -256);
  expect_rejected("movie_align: gain header nx -256",
                  movie("nxneg_gain", "-i " + file("mv.mrcs") + " --gain " + file("gain_nx_neg.mrc")), 3,
                  {"gain_nx_neg.mrc"});

  expect_rejected("reconstruct: --padding 0", reconstruct("pad0", "-i " + file("p.star") + " --padding 0"), 2,
                  {"padding"});
  expect_rejected("movie_align: --bin -2", movie("bin_neg", "-i " + file("mv.mrcs") + " --bin -2"), 2, {"--bin"});
  expect_rejected("movie_align: --patches 0 2", movie("patch0", "-i " + file("mv.mrcs") + " --patches 0 2"), 2,
                  {"--patches"});
  expect_rejected("align_significant: --sampling 0",
                  align("samp0", volume_args(file("p.xmd"), file("p_phantom.mrc")) + " --sampling 0"), 2,
                  {"--sampling"});
  const std::string d = out_dir("out_box0");
  Case sim{run(simulate_cmd("--mode projections --box 0 --oroot " + d + "/s"), d + "/log"),
           {d + "/s.mrcs", d + "/s.star", d + "/s.xmd", d + "/s_phantom.mrc"}};
  expect_rejected("simulate: --box 0", sim, 2, {"--box"});
}

// Metadata that lists more images than the stack holds (a stack of 15 for 20 rows; a row
// addressing image 21 of 20), and a frame range beyond the movie: input errors naming the stack.
TEST_F(Reliability, MismatchedMetadataCountsAreRejected) {
  const std::string short_stack = particle_copy("of15");
  poke<std::int32_t>(short_stack, kNz, 15);
  fs::resize_file(short_stack, pixel_at(32, 15, 0, 0)); // a consistent file of 15 images
  expect_rejected("reconstruct: 20 rows, stack of 15", reconstruct("of15_rec", "-i " + file("of15.star")), 3,
                  {"of15.mrcs", "holds 15"});
  expect_rejected("align_significant: 20 rows, stack of 15",
                  align("of15_al", volume_args(file("of15.xmd"), file("p_phantom.mrc"))), 3, {"of15.mrcs", "holds 15"});
  replace_all(file("p.xmd"), file("past.xmd"), "000020@" + file("p.mrcs"), "000021@" + file("p.mrcs"));
  expect_rejected("align_significant: row 20 addresses image 21 of 20",
                  align("past_al", volume_args(file("past.xmd"), file("p_phantom.mrc"))), 3, {"p.mrcs", "image 21"});
  expect_rejected("movie_align: --frameRange 0 9 of 6 frames",
                  movie("range_mv", "-i " + file("mv.mrcs") + " --frameRange 0 9"), 3, {"mv.mrcs"});
}

// Metadata without its image column, references without `ref`, a row with fewer values than
// labels, CTF correction without CTF labels: input errors naming the metadata file.
TEST_F(Reliability, MissingColumnsAreRejected) {
  edit_lines(file("p.star"), file("no_image.star"), [](std::string& line) {
    if (line.rfind("_rlnImageName", 0) == 0) return false;
    if (line.find(".mrcs") != std::string::npos) line = keep_fields(line, 1, 99);
    return true;
  });
  expect_rejected("reconstruct: STAR without rlnImageName", reconstruct("noimg_rec", "-i " + file("no_image.star")), 3,
                  {"no_image.star", "image"});
  edit_lines(file("p.xmd"), file("no_image.xmd"), [](std::string& line) {
    if (line.rfind(" _image", 0) == 0) return false;
    if (line.find(".mrcs") != std::string::npos) { // drop the second field (itemId stays)
      const auto f = fields(line);
      line = " " + f[0] + keep_fields(line, 2, 99);
    }
    return true;
  });
  expect_rejected("align_significant: XMD without image",
                  align("noimg_al", volume_args(file("no_image.xmd"), file("p_phantom.mrc"))), 3,
                  {"no_image.xmd", "image"});
  expect_rejected("align_significant: references without ref",
                  align("noref_al", "-i " + file("p.xmd") + " -r " + file("p.xmd")), 3, {"p.xmd", "ref"});
  edit_lines(file("p.star"), file("short_row.star"), [](std::string& line) {
    if (line.rfind("000007@", 0) == 0) line = keep_fields(line, 0, 4); // 4 of 9 values
    return true;
  });
  expect_rejected("reconstruct: row 7 with missing values", reconstruct("short_rec", "-i " + file("short_row.star")), 3,
                  {"short_row.star"});
  expect_rejected("reconstruct: --useCTF without CTF labels",
                  reconstruct("ctf_rec", "-i " + file("p.star") + " --useCTF"), 3, {"p.star", "rlnDefocusU"});
}

// Unknown or malformed point groups are usage errors (exit 2, docs/conventions.md#exit-codes),
// reported before any data is read; the message quotes the symbol.
TEST_F(Reliability, UnknownSymmetryIsAUsageError) {
  for (const char* sym : {"x7", "c0", "i5", "d-2"})
    expect_rejected(
        std::string("reconstruct: --sym ") + sym,
        reconstruct(std::string("sym_") + (sym[0] == 'd' ? "dneg" : sym), "-i " + file("p.star") + " --sym " + sym), 2,
        {std::string("'") + sym + "'"});
  expect_rejected("align_significant: --sym q3",
                  align("sym_al", volume_args(file("p.xmd"), file("p_phantom.mrc")) + " --sym q3"), 2, {"'q3'"});
}

// A gain that is missing, random bytes, cut short, a directory or unreadable, or of another size:
// input errors naming the gain.
TEST_F(Reliability, UnreadableGainIsRejected) {
  const std::string mv = "-i " + file("mv.mrcs") + " --gain ";
  expect_rejected("movie_align: gain missing", movie("gain_missing", mv + file("no_gain.mrc")), 3, {"no_gain.mrc"});
  {
    std::mt19937 rng(7);
    std::ofstream g(file("gain_noise.mrc"), std::ios::binary);
    for (int i = 0; i < 4096; ++i) g.put(static_cast<char>(rng() & 0xff));
  }
  expect_rejected("movie_align: gain of random bytes", movie("gain_noise", mv + file("gain_noise.mrc")), 3,
                  {"gain_noise.mrc"});
  fs::resize_file(gain_copy("gain_cut"), 2000);
  expect_rejected("movie_align: gain cut to 2000 bytes", movie("gain_cut", mv + file("gain_cut.mrc")), 3,
                  {"gain_cut.mrc"});
  fs::create_directories(file("gain_dir.mrc"));
  expect_rejected("movie_align: gain is a directory", movie("gain_dir", mv + file("gain_dir.mrc")), 3,
                  {"gain_dir.mrc"});
  if (::geteuid() != 0) { // root reads anything
    const std::string locked = gain_copy("gain_locked");
    fs::permissions(locked, fs::perms::none);
    expect_rejected("movie_align: gain without read permission", movie("gain_locked", mv + locked), 3,
                    {"gain_locked.mrc"});
    fs::permissions(locked, fs::perms::owner_all);
  } else {
    std::printf("[bad input] movie_align: gain without read permission: not run (root reads every file)\n");
  }
  const Outcome small =
      run(simulate_cmd("--mode movie --size 128 128 --frames 3 --gain --oroot " + file("small")), file("sim_small"));
  ASSERT_EQ(small.exit_code, 0) << small.err;
  expect_rejected("movie_align: gain 128x128 for 256x256 frames", movie("gain_size", mv + file("small_gain.mrc")), 3,
                  {"small_gain.mrc"});
}

// ---------------------------------------------------------------------------------------------
// Interruption

/// ", writing <temporary>" for a signal while writing, else "".
std::string mid_write_note(const Interruption& in) {
  if (!in.write_trigger) return {};
  return ", writing " + in.temporary + (in.mid_write ? "" : " (NOT mid-write)");
}

/// After SIGINT: status 130, the handler's note, no temporary of the process left, and nothing at
/// `final_path` when interrupted while writing it.
void expect_clean_sigint(const std::string& what, const Interruption& in, const std::string& dir) {
  const Outcome& o = in.outcome;
  std::printf("[interrupt] %-52s %s; %s after %.2f s%s\n", what.c_str(),
              in.fired ? "SIGINT sent" : "NOT interrupted", o.status().c_str(), o.seconds, mid_write_note(in).c_str());
  ASSERT_TRUE(in.fired) << what << ": the run ended before it could be interrupted\n" << o.err;
  EXPECT_FALSE(o.timed_out) << what;
  EXPECT_EQ(o.signal, 0) << what;
  EXPECT_EQ(o.exit_code, 130) << what << "\n" << o.err;
  EXPECT_NE(o.err.find("interrupted: partial outputs removed"), std::string::npos) << what;
  EXPECT_TRUE(temporaries(dir, o.pid).empty()) << what << ": a temporary was left behind";
  if (in.write_trigger) {
    EXPECT_TRUE(in.mid_write) << what << ": the signal did not come while writing " << in.final_path;
    EXPECT_FALSE(fs::exists(in.final_path)) << what << ": " << in.final_path;
  }
}

/// After SIGKILL: killed, and nothing at `final_path` when killed while writing it. A killed
/// process cannot remove its temporaries: they are counted and printed here, and the rerun's
/// commit of the same output removes them (checked after the reruns).
void expect_clean_sigkill(const std::string& what, const Interruption& in, const std::string& dir) {
  const Outcome& o = in.outcome;
  const auto left = temporaries(dir, o.pid);
  std::printf("[interrupt] %-52s %s; %s after %.2f s%s; stale temporaries: %zu%s\n", what.c_str(),
              in.fired ? "SIGKILL sent" : "NOT interrupted", o.status().c_str(), o.seconds, mid_write_note(in).c_str(),
              left.size(), left.empty() ? "" : (" (" + left.front() + ")").c_str());
  ASSERT_TRUE(in.fired) << what << ": the run ended before it could be interrupted\n" << o.err;
  EXPECT_FALSE(o.timed_out) << what;
  EXPECT_EQ(o.signal, SIGKILL) << what;
  if (in.write_trigger) {
    EXPECT_TRUE(in.mid_write) << what << ": the signal did not come while writing " << in.final_path;
    EXPECT_FALSE(fs::exists(in.final_path)) << what << ": " << in.final_path;
  }
}

// frost_reconstruct_fourier: SIGINT and SIGKILL during insertion (2000 images, one thread), then
// a rerun; and while writing (--halves: half 1, half 2, FSC files, then the map, all in one output
// set): SIGKILL while half map 2 is written, SIGINT while the map is written (neither leaves a file
// of the run in place), then a rerun writing all five files.
TEST_F(Reliability, ReconstructionInterruptedLeavesNoPartialMapAndReruns) {
  { // the 20 particle rows of p.star 100 times: a run of about 2 s without more simulation
    std::istringstream in(slurp(file("p.star")));
    std::string head, rows;
    for (std::string line; std::getline(in, line);)
      (line.find("@" + file("p.mrcs")) != std::string::npos ? rows : head) += line + "\n";
    std::ofstream many(file("many.star"));
    many << head;
    for (int k = 0; k < 100; ++k) many << rows;
  }
  const std::string d = out_dir("out_interrupt_rec");
  const std::string many = reconstruct_cmd("-i " + file("many.star") + " -o " + d + "/map.mrc");
  Interruption in = interrupt_mid_run(many, d + "/int", "insertion on", 0.1, SIGINT);
  expect_clean_sigint("reconstruct: SIGINT during insertion", in, d);
  EXPECT_FALSE(fs::exists(d + "/map.mrc"));
  in = interrupt_mid_run(many, d + "/kill", "insertion on", 0.1, SIGKILL);
  expect_clean_sigkill("reconstruct: SIGKILL during insertion", in, d);
  EXPECT_FALSE(fs::exists(d + "/map.mrc"));
  const Outcome full = run(many, d + "/rerun");
  std::printf("[interrupt] reconstruct: rerun of the 2000-image map: %s in %.2f s\n", full.status().c_str(),
              full.seconds);
  ASSERT_EQ(full.exit_code, 0) << full.err;
  EXPECT_EQ(io::read_volume(d + "/map.mrc").image.shape(), Shape::volume(32, 32, 32));

  const std::string w = out_dir("out_interrupt_rec_write");
  const std::string halves = reconstruct_cmd("-i " + file("p.star") + " --halves -o " + w + "/h.mrc");
  in = interrupt_while_writing(halves, w + "/kill", w + "/h_half2.mrc", SIGKILL);
  expect_clean_sigkill("reconstruct: SIGKILL writing half map 2", in, w);
  EXPECT_FALSE(fs::exists(w + "/h_half1.mrc")); // finished before, but the set never committed
  EXPECT_FALSE(fs::exists(w + "/h.mrc"));
  in = interrupt_while_writing(halves, w + "/int", w + "/h.mrc", SIGINT);
  expect_clean_sigint("reconstruct: SIGINT writing the map", in, w);
  EXPECT_FALSE(fs::exists(w + "/h.mrc"));
  EXPECT_FALSE(fs::exists(w + "/h_half2.mrc")); // finished before the map, removed with the set
  const Outcome again = run(halves, w + "/rerun");
  std::printf("[interrupt] reconstruct: rerun with --halves: %s in %.2f s\n", again.status().c_str(),
              again.seconds);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(temporaries(w).empty()) << "the rerun's commits remove the killed run's temporaries";
  for (const char* f : {"/h.mrc", "/h_half1.mrc", "/h_half2.mrc", "/h_fsc.star", "/h_fsc.txt"})
    EXPECT_TRUE(fs::exists(w + f)) << f;
  EXPECT_EQ(io::read_volume(w + "/h.mrc").image.shape(), Shape::volume(32, 32, 32));
  EXPECT_EQ(io::read_volume(w + "/h_half2.mrc").image.shape(), Shape::volume(32, 32, 32));
}

// frost_align_significant writes angles.xmd, then angles.star: SIGINT while the .xmd is written
// leaves neither; SIGKILL while the .star is written leaves the complete .xmd and no .star; the
// rerun writes both.
TEST_F(Reliability, AlignSignificantInterruptedWhileWritingReruns) {
  const std::string d = out_dir("out_interrupt_align");
  const std::string cmd = align_cmd(volume_args(file("p.xmd"), file("p_phantom.mrc")) + " -o " + d + "/angles.xmd");
  Interruption in = interrupt_while_writing(cmd, d + "/int", d + "/angles.xmd", SIGINT);
  expect_clean_sigint("align_significant: SIGINT writing angles.xmd", in, d);
  EXPECT_FALSE(fs::exists(d + "/angles.xmd"));
  EXPECT_FALSE(fs::exists(d + "/angles.star"));
  in = interrupt_while_writing(cmd, d + "/kill", d + "/angles.star", SIGKILL);
  expect_clean_sigkill("align_significant: SIGKILL writing angles.star", in, d);
  EXPECT_FALSE(fs::exists(d + "/angles.star"));
  const Outcome again = run(cmd, d + "/rerun");
  std::printf("[interrupt] align_significant: rerun: %s in %.2f s\n", again.status().c_str(), again.seconds);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(temporaries(d).empty()) << "the rerun's commits remove the killed run's temporaries";
  EXPECT_TRUE(fs::exists(d + "/angles.xmd"));
  EXPECT_TRUE(fs::exists(d + "/angles.star"));
}

// frost_simulate: SIGINT while the stack is written, SIGKILL while the STAR is written; the rerun
// writes every file.
TEST_F(Reliability, SimulateInterruptedWhileWritingReruns) {
  const std::string d = out_dir("out_interrupt_sim");
  const std::string cmd = simulate_cmd("--mode projections --box 32 --count 50 --oroot " + d + "/s");
  Interruption in = interrupt_while_writing(cmd, d + "/int", d + "/s.mrcs", SIGINT);
  expect_clean_sigint("simulate: SIGINT writing s.mrcs", in, d);
  EXPECT_FALSE(fs::exists(d + "/s.mrcs"));
  in = interrupt_while_writing(cmd, d + "/kill", d + "/s.star", SIGKILL);
  expect_clean_sigkill("simulate: SIGKILL writing s.star", in, d);
  EXPECT_FALSE(fs::exists(d + "/s.star"));
  const Outcome again = run(cmd, d + "/rerun");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(temporaries(d).empty()) << "the rerun's commits remove the killed run's temporaries";
  for (const char* f : {"/s.mrcs", "/s.star", "/s.xmd"}) EXPECT_TRUE(fs::exists(d + f)) << f;
  EXPECT_EQ(io::read_stack(d + "/s.mrcs").image.shape(), Shape::image(32, 32, 50));
}

// Batch movie alignment over 4 movies (each: <movie>.mrc, then <movie>_align.star, which batch.cpp
// takes as "done" together with the micrograph): SIGINT while m2's micrograph is written; the
// rerun skips m1 and is killed (SIGKILL) while m3's alignment STAR is written, after m3.mrc, which
// the movie's output set still holds back; the last run skips m1 and m2 without rewriting them,
// redoes m3 and does m4.
TEST_F(Reliability, MovieBatchResumesAfterInterruption) {
  std::string list;
  for (int i = 1; i <= 4; ++i) {
    const std::string root = file("m" + std::to_string(i));
    const Outcome s = run(
        simulate_cmd("--mode movie --size 256 256 --frames 6 --seed " + std::to_string(10 + i) + " --oroot " + root),
        file("sim_m"));
    ASSERT_EQ(s.exit_code, 0) << s.err;
    list += root + ".mrcs\n";
  }
  std::ofstream(file("movies.txt")) << list;
  const std::string d = out_dir("out_batch");
  const std::string cmd = movie_cmd("-i " + file("movies.txt") + " --skipLocalAlignment --oavg " + d + "/{movie}.mrc");
  auto outputs_of = [&](int i) {
    const std::string m = d + "/m" + std::to_string(i);
    return std::make_pair(m + ".mrc", m + "_align.star");
  };

  Interruption in = interrupt_while_writing(cmd, d + "/run1", outputs_of(2).first, SIGINT);
  expect_clean_sigint("movie_align batch: SIGINT writing m2.mrc", in, d);
  EXPECT_TRUE(fs::exists(outputs_of(1).first) && fs::exists(outputs_of(1).second)) << "m1 was finished";
  EXPECT_FALSE(fs::exists(outputs_of(2).first));
  EXPECT_FALSE(fs::exists(outputs_of(2).second));
  const ino_t m1 = inode(outputs_of(1).second);

  in = interrupt_while_writing(cmd, d + "/run2", outputs_of(3).second, SIGKILL);
  expect_clean_sigkill("movie_align batch rerun: SIGKILL writing m3_align.star", in, d);
  const std::string log2 = in.outcome.out + in.outcome.err;
  EXPECT_NE(log2.find("m1.mrcs: outputs exist, skipped"), std::string::npos) << log2;
  EXPECT_EQ(inode(outputs_of(1).second), m1) << "m1 was rewritten";
  EXPECT_TRUE(fs::exists(outputs_of(2).first) && fs::exists(outputs_of(2).second)) << "m2 was finished";
  // A movie's outputs are one set: m3.mrc, finished first, stays a temporary until m3_align.star is.
  EXPECT_FALSE(fs::exists(outputs_of(3).first)) << "m3.mrc appeared without m3_align.star";
  EXPECT_FALSE(fs::exists(outputs_of(3).second));
  const ino_t m2 = inode(outputs_of(2).second);

  const Outcome last = run(cmd, d + "/run3");
  const std::string log3 = last.out + last.err;
  std::printf("[interrupt] movie_align batch: final rerun: %s in %.2f s: %s", last.status().c_str(), last.seconds,
              last.out.substr(last.out.rfind('\n', last.out.size() - 2) + 1).c_str());
  ASSERT_EQ(last.exit_code, 0) << log3;
  EXPECT_NE(last.out.find("2 aligned, 2 skipped, 0 failed"), std::string::npos) << log3;
  EXPECT_NE(log3.find("m1.mrcs: outputs exist, skipped"), std::string::npos);
  EXPECT_NE(log3.find("m2.mrcs: outputs exist, skipped"), std::string::npos);
  EXPECT_EQ(inode(outputs_of(1).second), m1) << "m1 was rewritten";
  EXPECT_EQ(inode(outputs_of(2).second), m2) << "m2 was rewritten";
  for (int i = 1; i <= 4; ++i) {
    EXPECT_TRUE(fs::exists(outputs_of(i).second)) << i;
    EXPECT_EQ(io::read_image(outputs_of(i).first).image.shape(), Shape::image(256, 256)) << i;
  }
}

// Found by this suite and fixed: the batch "done" test looked at the alignment file and the
// micrograph only, and align_movie.cpp writes --ostar_motion after the alignment file, so a movie
// killed between the two was skipped on resume without its motion STAR. The done test now
// covers every requested output (batch.cpp all_outputs_complete).
TEST_F(Reliability, MovieBatchResumeWritesAMotionStarMissedByAKill) {
  std::string list;
  for (int i = 1; i <= 2; ++i) {
    const std::string root = file("r" + std::to_string(i));
    ASSERT_EQ(run(simulate_cmd("--mode movie --size 256 256 --frames 6 --seed " + std::to_string(20 + i) + " --oroot " +
                               root),
                  file("sim_r"))
                  .exit_code,
              0);
    list += root + ".mrcs\n";
  }
  std::ofstream(file("motion_movies.txt")) << list;
  const std::string d = out_dir("out_batch_motion");
  const std::string cmd = movie_cmd("-i " + file("motion_movies.txt") + " --skipLocalAlignment --oavg " + d +
                                    "/{movie}.mrc --ostar_motion " + d + "/{movie}_motion.star");
  const Interruption in = interrupt_while_writing(cmd, d + "/run1", d + "/r1_motion.star", SIGKILL);
  expect_clean_sigkill("movie_align batch: SIGKILL writing r1_motion.star", in, d);
  const Outcome again = run(cmd, d + "/run2");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(fs::exists(d + "/r1_motion.star")) << again.out << again.err;
}

// Outputs are renamed into place without an fsync (FROST_FSYNC unset), so a machine crash can
// leave one present but empty or short. The rerun must redo such a movie, not skip it: a short
// micrograph (shorter than its header says) and an empty alignment STAR are both "not done".
TEST_F(Reliability, MovieBatchRedoesOutputsLeftShortByACrash) {
  std::string list;
  for (int i = 1; i <= 3; ++i) {
    const std::string root = file("c" + std::to_string(i));
    ASSERT_EQ(run(simulate_cmd("--mode movie --size 128 128 --frames 5 --seed " + std::to_string(30 + i) + " --oroot " +
                               root),
                  file("sim_c"))
                  .exit_code,
              0);
    list += root + ".mrcs\n";
  }
  std::ofstream(file("crash_movies.txt")) << list;
  const std::string d = out_dir("out_batch_crash");
  const std::string cmd =
      movie_cmd("-i " + file("crash_movies.txt") + " --skipLocalAlignment --oavg " + d + "/{movie}.mrc");
  const Outcome first = run(cmd, d + "/run1");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  fs::resize_file(d + "/c1.mrc", fs::file_size(d + "/c1.mrc") / 2);
  fs::resize_file(d + "/c2_align.star", 0);
  const ino_t kept = inode(d + "/c3.mrc");
  const Outcome again = run(cmd, d + "/run2");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("2 aligned, 1 skipped, 0 failed"), std::string::npos) << again.out << again.err;
  EXPECT_EQ(inode(d + "/c3.mrc"), kept) << "c3 was complete and must be skipped";
  EXPECT_EQ(io::read_image(d + "/c1.mrc").image.shape(), Shape::image(128, 128));
  EXPECT_GT(fs::file_size(d + "/c2_align.star"), 0u);
}

// ---------------------------------------------------------------------------------------------
// MPI faults

#ifdef FROST_MPIEXEC
int count_lines_starting(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += line.rfind(start, 0) == 0;
  return n;
}

/// 2 ranks: non-zero exit within the timeout, exactly one "error:" line, naming `names`, no
/// output and no temporary left.
void expect_job_stopped(const std::string& what, const Outcome& o, const std::vector<std::string>& names,
                        const std::vector<std::string>& outputs, const std::string& dir) {
  const std::string all = o.out + o.err;
  const std::string message = error_line(o.err);
  std::printf("[mpi] %-60s %s in %.2f s, %d error line(s): %s\n", what.c_str(), o.status().c_str(), o.seconds,
              count_lines_starting(all, "error:"), message.c_str());
  EXPECT_FALSE(o.timed_out) << what << ": the job hung\n" << all;
  EXPECT_NE(o.exit_code, 0) << what << "\n" << all;
  EXPECT_EQ(count_lines_starting(all, "error:"), 1) << what << "\n" << all;
  for (const std::string& n : names)
    EXPECT_NE(message.find(n), std::string::npos) << what << ": no '" << n << "'\n" << all;
  for (const std::string& out : outputs) EXPECT_FALSE(fs::exists(out)) << what << ": " << out;
  EXPECT_TRUE(temporaries(dir).empty()) << what;
}
#endif

// Rank 1's share (rows 11-20 for both programs here: jobs of 10 images in turn; contiguous halves)
// holds row 15, whose image is a file of random bytes, or, second case, a NaN pixel: the job ends
// with the input exit status and rank 1's message, not a hang in the reduction.
TEST_F(Reliability, MpiRankFailingOnBadInputStopsTheJob) {
#ifndef FROST_MPIEXEC
  GTEST_SKIP() << "frost was built without MPI";
#else
  {
    std::mt19937 rng(3);
    std::ofstream g(file("noise.mrcs"), std::ios::binary);
    for (int i = 0; i < 8192; ++i) g.put(static_cast<char>(rng() & 0xff));
  }
  replace_all(file("p.star"), file("rank1_bad.star"), "000015@" + file("p.mrcs"), "000015@" + file("noise.mrcs"));
  replace_all(file("p.xmd"), file("rank1_bad.xmd"), "000015@" + file("p.mrcs"), "000015@" + file("noise.mrcs"));
  poke(particle_copy("rank1_nan"), pixel_at(32, 14, 16, 16), std::numeric_limits<float>::quiet_NaN());
  const std::string mpirun = std::string("env ") + FROST_MPIEXEC + " -np 2 ";
  const std::string d = out_dir("out_mpi");

  Outcome o = run(mpirun + reconstruct_cmd("-i " + file("rank1_bad.star") + " --mpi_job_size 10 -o " + d + "/map.mrc"),
                  d + "/rec");
  expect_job_stopped("reconstruct, 2 ranks: rank 1's row 15 is random bytes", o, {"rank 1", "noise.mrcs"},
                     {d + "/map.mrc"}, d);
  o = run(mpirun + reconstruct_cmd("-i " + file("rank1_nan.star") + " --mpi_job_size 10 -o " + d + "/map.mrc"),
          d + "/rec_nan");
  expect_job_stopped("reconstruct, 2 ranks: rank 1's row 15 has a NaN", o, {"rank 1", "rank1_nan.mrcs"},
                     {d + "/map.mrc"}, d);
  o = run(mpirun + align_cmd(volume_args(file("rank1_bad.xmd"), file("p_phantom.mrc")) + " -o " + d + "/angles.xmd"),
          d + "/al");
  expect_job_stopped("align_significant, 2 ranks: rank 1's row 15 is random bytes", o, {"rank 1", "noise.mrcs"},
                     {d + "/angles.xmd", d + "/angles.star"}, d);
  o = run(mpirun + align_cmd(volume_args(file("rank1_nan.xmd"), file("p_phantom.mrc")) + " -o " + d + "/angles.xmd"),
          d + "/al_nan");
  expect_job_stopped("align_significant, 2 ranks: rank 1's row 15 has a NaN", o, {"rank 1", "rank1_nan.mrcs"},
                     {d + "/angles.xmd", d + "/angles.star"}, d);
#endif
}

} // namespace
} // namespace frost
