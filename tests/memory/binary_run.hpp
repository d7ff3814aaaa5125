// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs the netdp binary (NETDP_BINARY) as a child process with stdout to /dev/null, and reports its
// exit code, its peak resident memory (wait4) and what it wrote on stderr. Optionally under an
// address-space limit (RLIMIT_AS) and with one thread (OpenMP and OpenBLAS), so that an allocation
// fails where the test means it to.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace netdp::testing {

struct BinaryRun {
  int exit_code = -1;       ///< -1 when the child did not exit normally
  double peak_bytes = 0.0;  ///< the child's peak resident memory
  std::string err;
};

inline BinaryRun run_binary(std::vector<std::string> args,
                            std::optional<rlim_t> address_space = std::nullopt) {
  const std::string err_path = "/tmp/netdp-binary-run-" + std::to_string(::getpid()) + ".err";
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
    if (address_space) {
      const rlimit limit{*address_space, *address_space};
      setrlimit(RLIMIT_AS, &limit);
      setenv("NETDP_HUGE_PAGES", "0", 1);
      setenv("OMP_NUM_THREADS", "1", 1);
      setenv("OPENBLAS_NUM_THREADS", "1", 1);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  BinaryRun run;
  int status = 0;
  rusage usage{};
  if (child < 0 || wait4(child, &status, 0, &usage) != child) return run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.peak_bytes = 1024.0 * static_cast<double>(usage.ru_maxrss);  // Linux: kilobytes
  std::ifstream in(err_path);
  std::ostringstream text;
  text << in.rdbuf();
  run.err = text.str();
  std::remove(err_path.c_str());
  return run;
}

}  // namespace netdp::testing
