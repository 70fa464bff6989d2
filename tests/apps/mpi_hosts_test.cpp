// Ranks as if on different hosts (docs/conventions.md#mpi-and-several-hosts): under mpirun -np 4
// and 8, a wrapper gives every rank what a node of its own would give it:
// a private /tmp (TMPDIR), home and cache folders, and local rank 0 of 1 (so no two ranks look like
// neighbours on one machine).
// Inputs and outputs are on the shared file system (the test's folder). The programs must give
// the single-rank results; a rank killed with SIGKILL must end the whole job, with a non-zero
// status, a message naming the rank and no output left, within the timeout. CPU only; skipped
// without MPI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "frost/io/image_io.hpp"
#include "frost/test/files.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

namespace fs = std::filesystem;

#ifdef FROST_MPIEXEC
class MpiHosts : public ::testing::Test {
protected:
  void SetUp() override {
    // One rank as if alone on its node; KILL_RANK (when set) is killed just after it starts.
    std::ofstream(dir_.file("host.sh")) << "#!/bin/sh\n"
                                           "r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}\n"
                                           "h=" << dir_.file("host") << "$r\n"
                                           "mkdir -p \"$h/tmp\" \"$h/cache\"\n"
                                           "export TMPDIR=\"$h/tmp\" HOME=\"$h\" XDG_CACHE_HOME=\"$h/cache\" FROST_CACHE_DIR=\"$h/cache\"\n"
                                           "export OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=1\n"
                                           "unset MPI_LOCALRANKID SLURM_LOCALID\n"
                                           "if [ -n \"${KILL_RANK:-}\" ] && [ \"$r\" = \"$KILL_RANK\" ]; then\n"
                                           "  \"$@\" & p=$!; sleep 0.05; kill -9 $p; wait $p; exit $?\n"
                                           "fi\n"
                                           "exec \"$@\"\n";
    fs::permissions(dir_.file("host.sh"), fs::perms::owner_all);
    const test::Outcome v = run(std::string(FROST_SIMULATE_EXE) + " --mode phantom --box 32 --oroot " + file("vol"));
    ASSERT_EQ(v.exit_code, 0) << v.err;
    const test::Outcome p = run(std::string(FROST_SIMULATE_EXE) + " --mode projections --volume " + file("vol.mrc") +
                                " -n 120 --oroot " + file("imgs"));
    ASSERT_EQ(p.exit_code, 0) << p.err;
  }
  std::string file(const std::string& name) const { return dir_.file(name); }
  test::Outcome run(const std::string& command, double timeout_s = 300) {
    return test::run_program(command, dir_.file("log" + std::to_string(runs_++)), timeout_s);
  }
  /// mpirun -np `ranks` with every rank on its own "host".
  test::Outcome on_hosts(int ranks, const std::string& program, const std::string& env = "") {
    // Through env(1): the runner execs the command, and the launcher line starts with assignments.
    return run("env " + env + std::string(FROST_MPIEXEC) + " -np " + std::to_string(ranks) + " " + file("host.sh") +
               " " + program);
  }
  test::Outcome on_four_hosts(const std::string& program, const std::string& env = "") {
    return on_hosts(4, program, env);
  }

private:
  test::TempDir dir_;
  int runs_ = 0;
};

TEST_F(MpiHosts, ReconstructionGivesTheSingleRankMap) {
  const std::string args = " --device cpu --thr 1 -i " + file("imgs.star") + " --sym c2 --mpi_job_size 9 -o ";
  ASSERT_EQ(run(std::string(FROST_RECONSTRUCT_EXE) + args + file("one.mrc")).exit_code, 0);
  const Image<float> a = io::read_volume(file("one.mrc")).image;
  // Eight ranks stand for a job of several nodes: the grids still meet in one reduction.
  for (int ranks : {4, 8}) {
    const std::string out = file("ranks" + std::to_string(ranks) + ".mrc");
    const test::Outcome o = on_hosts(ranks, std::string(FROST_RECONSTRUCT_EXE) + args + out);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const Image<float> b = io::read_volume(out).image;
    const double d = test::relative_l2(a.data(), b.data(), static_cast<std::size_t>(a.size()));
    std::printf("%d ranks on %d 'hosts' vs 1 rank: rel L2 %.3g\n", ranks, ranks, d);
    EXPECT_LE(d, 1e-6);
  }
}

// The rows, and the class averages of --oUpdatedRefs, which every rank adds from its own images
// (rank 0 reads no other rank's images; the sums meet on rank 0, so the floats agree to rounding).
TEST_F(MpiHosts, AlignSignificantGivesTheSingleRankFile) {
  const std::string args = " --device cpu --thr 1 -i " + file("imgs.xmd") + " --volume " + file("vol.mrc") +
                           " --sampling 20 --keepBestN 2 -o angles.xmd --oUpdatedRefs classes --odir ";
  ASSERT_EQ(run(std::string(FROST_ALIGN_EXE) + args + file("one")).exit_code, 0);
  const std::string a = test::slurp(file("one/angles.xmd"));
  ASSERT_FALSE(a.empty());
  const Image<float> one = io::read_stack(file("one/classes.stk")).image;
  for (int ranks : {4, 8}) {
    const std::string out = file("ranks" + std::to_string(ranks));
    const test::Outcome o = on_hosts(ranks, std::string(FROST_ALIGN_EXE) + args + out);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(a, test::slurp(out + "/angles.xmd")) << ranks << " ranks";
    const Image<float> many = io::read_stack(out + "/classes.stk").image;
    ASSERT_EQ(many.shape(), one.shape());
    const double d = test::relative_l2(one.data(), many.data(), static_cast<std::size_t>(one.size()));
    std::printf("%d ranks on %d 'hosts': class averages vs 1 rank: rel L2 %.3g\n", ranks, ranks, d);
    EXPECT_LE(d, 1e-6);
  }
}

TEST_F(MpiHosts, AKilledRankEndsTheJobWithAMessage) {
  const test::Outcome o = on_four_hosts(std::string(FROST_RECONSTRUCT_EXE) + " --device cpu --thr 1 -i " +
                                            file("imgs.star") + " --sym c2 -o " + file("killed.mrc"),
                                        "KILL_RANK=2 ");
  std::printf("a job with rank 2 killed: %s after %.1f s\n", o.status().c_str(), o.seconds);
  EXPECT_FALSE(o.timed_out) << "the other ranks waited for the dead one";
  EXPECT_NE(o.exit_code, 0);
  // Open MPI names the dead process ("Process name: [[job,1],2]", its exit code); the ranks that
  // were stopped say that they removed their partial outputs.
  const std::string said = o.out + o.err;
  EXPECT_NE(said.find(",2]"), std::string::npos) << said;
  EXPECT_NE(said.find("partial outputs removed"), std::string::npos) << said;
  EXPECT_FALSE(fs::exists(file("killed.mrc")));
}
#else
TEST(MpiHosts, NeedsMpi) { GTEST_SKIP() << "frost was built without MPI"; }
#endif

} // namespace
} // namespace frost
