// A std::bad_alloc that escapes every estimate is a clean error: the command exits with code 2 and
// says what ran out of memory, which estimate it had checked and how to set a limit, instead of
// "failure" (exit 1) or an abort. The binary runs under an address-space limit (RLIMIT_AS) below
// what the run takes, with no --max-memory, so the estimates (against the machine's memory) pass
// and an allocation fails.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct LimitedRun {
  int exit_code = -1;
  std::string err;
};

LimitedRun run_limited(std::vector<std::string> args, rlim_t address_space) {
  const std::string err_path = "/tmp/netdp-memory-guard-" + std::to_string(::getpid()) + ".err";
  args.insert(args.begin(), NETDP_BINARY);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    const int null_fd = open("/dev/null", O_WRONLY);
    const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(null_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    const rlimit limit{address_space, address_space};
    setrlimit(RLIMIT_AS, &limit);
    setenv("NETDP_HUGE_PAGES", "0", 1);
    setenv("OMP_NUM_THREADS", "1", 1);
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  LimitedRun run;
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  std::ostringstream text;
  text << in.rdbuf();
  run.err = text.str();
  std::remove(err_path.c_str());
  return run;
}

TEST(MemoryGuard, BadAllocIsAnErrorNamingTheEstimate) {
  // The audit's estimate (1.5 GB: the pseudo-inverse of B′ solves against an M x M identity, M = 9,600
  // messages) passes against the machine's memory; the 450 MB address space does not hold it. The
  // allocation that fails is Eigen's (BLAS would retry its own buffer instead of failing).
  const LimitedRun run = run_limited({"audit", "--graph", "karate", "--rounds", "600", "--observer", "0",
                                      "--target", "33", "--trials", "10"},
                                     450u << 20);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("netdp: error: netdp audit ran out of memory"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("the largest memory estimate checked was 1.49 GB for the audit's simulated view"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("set --max-memory"), std::string::npos) << run.err;
  for (const char* crash : {"failure:", "terminate", "Aborted"})
    EXPECT_EQ(run.err.find(crash), std::string::npos) << run.err;
}

}  // namespace
