// frost_movie_align: FlexAlign-class movie alignment (docs/movie_align.md): global alignment of
// all frame pairs, local alignment of patches fitted by a cubic B-spline, warped and summed
// micrographs, and the motion as a queryable model. `frost_movie_align trajectories ...` queries a
// written model at given coordinates (docs/movie_align.md#querying-the-motion).
#include <cstring>
#include <iostream>
#include <memory>

#include "align_options.hpp"
#include "batch.hpp"
#include "device_choice.hpp"
#include "fft_storage.hpp"
#include "frost/cli/program.hpp"
#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/motion/motion_backend.hpp"
#include "frost/tuning/policy.hpp"
#include "process_movie.hpp"
#include "select_command.hpp"
#include "session_command.hpp"
#include "trajectories_command.hpp"

namespace frost::movie_align {
namespace {

class MovieAlign : public cli::Program {
public:
  MovieAlign()
      : Program("frost_movie_align",
                "Aligns the frames of a dose-fractionated movie (FlexAlign design): every frame pair is\n"
                "correlated at low resolution and the global shifts solved by robust least squares; patches\n"
                "are aligned the same way and a cubic B-spline fitted to their residual motion; frames are\n"
                "warped and summed. Shifts are stored as shifts to apply, in raw pixels.\n"
                "  frost_movie_align -i movie.mrcs --sampling 1.0 --oavg mic.mrc -o mic_align.star\n"
                "  frost_movie_align -i movies.txt --oavg 'out/{movie}.mrc'           (batch mode)\n"
                "  frost_movie_align -i movies.txt --oavg 'out/{movie_path}.mrc'      (keeps folders apart)\n"
                "  frost_movie_align -i 'Movies/*.tiff' --session S --watch --oavg 'S/mics/{movie}.mrc'  (live)\n"
                "  frost_movie_align trajectories --alignment A.star --coords C.star --out T.star\n"
                "  frost_movie_align select --session S --max-total-motion 30 --min-resolution 6\n"
                "--device cpu runs FFTW on CPU threads; --device <id> runs every stage on that GPU (CUDA).\n"
                "The default --device auto takes one GPU when CUDA sees any (under mpirun: the node-local\n"
                "rank modulo the number of GPUs), else the CPU; a list of ids is shared the same way.\n"
                "A --session run exits with 0 when no movie of the session failed, else with the code of its first\n"
                "failure (3 for a corrupt or truncated movie; 3 too for failures recorded by an earlier run).") {}

protected:
  void define(cli::Params& p) override {
    define_align_options(p);
    define_session_options(p);
    add_device_option(p, "auto"); // docs/movie_align.md#command-line: the first GPU if present
  }

  void validate() override {
    validate_align_options(params());
    validate_session_options(params(), output_paths(params()));
    if (!is_session_run(params()) && is_movie_list(params().get_text("-i")))
      check_batch_patterns(output_paths(params()));
  }

  /// Every file the run writes, checked with the inputs before any work: no output may name an
  /// input (the movie, a reference) or another output. In batch mode every movie of the list is an
  /// input and every movie's outputs are listed, so two movies whose outputs collide are refused
  /// before the first is aligned.
  void add_run_files(RunFiles& files) const override {
    OutputPaths outputs = output_paths(params());
    const std::string input = params().get_text("-i");
    // A session's -i is a folder or a glob that the watcher reads (and may not exist yet as a
    // file); its outputs are per movie, checked as each is written.
    if (is_session_run(params())) return;
    files.input("-i", input);
    if (is_movie_list(input)) {
      add_batch_run_files(files, read_movie_list(input), outputs);
      return;
    }
    if (outputs.alignment.empty()) outputs.alignment = default_alignment_path(outputs);
    for (const NamedPath& f : output_files(outputs, true)) files.output(f.option, f.path);
  }

  int run() override {
    AlignOptions options = align_options(params());
    // One GPU per process (Scipion runs one process per GPU; MPI ranks on a node take the ids in
    // turn). Program::main has already checked that the ids exist.
    const DeviceChoice choice =
        choose_device(device(), params().get_text("--device"), local_launcher_rank(launcher_rank()));
    options.gpu = choice.gpu;
    log_info(choice.why);
    if (options.gpu < 0) tuning::note_tuning_ignored_on_cpu(*options.backend.tuning);
    if (options.backend.low_memory && options.gpu >= 0)
      log_info("--low-memory: the GPU path already reads MRC frames as their stored bytes and decodes them on the "
               "device; the option changes nothing there");
    const OutputPaths outputs = output_paths(params());
    const std::string input = params().get_text("-i");
    const FftStorage storage(options.storage);
    // The GPU's start-up (context, FFT planner) begins here and overlaps opening the first movie.
    const std::unique_ptr<motion::MotionBackend> backend = motion::make_motion_backend(options.gpu, options.backend);
    if (is_session_run(params())) {
      // One worker per GPU of the list when this process is alone; under a launcher each rank
      // keeps the one GPU it was given, and the ranks share the session's journal.
      std::vector<std::unique_ptr<motion::MotionBackend>> more;
      std::vector<motion::MotionBackend*> backends{backend.get()};
      std::vector<std::string> devices{options.gpu < 0 ? "cpu" : "cuda:" + std::to_string(options.gpu)};
      if (options.gpu >= 0 && launcher_size() <= 1)
        for (int gpu : device().gpus)
          if (gpu != options.gpu) {
            more.push_back(motion::make_motion_backend(gpu, options.backend));
            backends.push_back(more.back().get());
            devices.push_back("cuda:" + std::to_string(gpu));
          }
      const int status = run_session_command(params(), backends, devices, options, outputs);
      storage.save();
      return status;
    }
    if (is_movie_list(input)) {
      const int status = run_batch(read_movie_list(input), *backend, options, outputs);
      storage.save();
      return status;
    }
    const MovieSummary s = process_movie(input, *backend, options, outputs);
    log_detail("movie done, device state released");
    storage.save();
    std::printf("%s: %d frames aligned, reference frame %d, %s model, last-frame shift (%.3f, %.3f) px, %.2f s\n",
                input.c_str(), s.frames, s.reference, s.local_model ? "B-spline" : "global", s.last_shift_raw.x,
                s.last_shift_raw.y, s.seconds);
    std::printf("alignment: %s\n", s.alignment_path.c_str());
    return 0;
  }
};

} // namespace
} // namespace frost::movie_align

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "trajectories") == 0)
    return frost::movie_align::TrajectoriesCommand().main(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "select") == 0)
    return frost::movie_align::SelectCommand().main(argc - 1, argv + 1);
  return frost::movie_align::MovieAlign().main(argc, argv);
}
