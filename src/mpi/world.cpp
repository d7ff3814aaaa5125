// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The processes of a run (world.hpp): MPI started only under a launcher, ranks other than 0 kept
// silent, and a failing rank that stops the whole run with its message.

#include "netdp/mpi/world.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace netdp::mpi {

namespace {

World g_world;
/// The rank's own standard error, kept when the Session silenced it (-1: not silenced).
int g_error_descriptor = -1;

}  // namespace

World world() { return g_world; }

bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

Session::Session(int& argc, char**& argv) {
  if (!started_by_launcher()) return;
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::fputs("netdp: error: MPI_Init_thread failed under mpirun\n", stderr);
    std::exit(2);
  }
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_world.size);
  if (g_world.rank == 0) return;
  // Rank 0 speaks for the run: the others' output (tables, progress, warnings) would repeat it.
  std::fflush(stdout);
  std::fflush(stderr);
  g_error_descriptor = dup(STDERR_FILENO);
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    close(null);
  }
}

Session::~Session() {
  if (active_ && !finished_) MPI_Finalize();
}

int Session::finish(int status) {
  if (!active_ || finished_) return status;
  finished_ = true;
  // A failure every rank finds (bad input) is reported by rank 0 alone: the other ranks give it
  // time to write its message before they stop the run, since their abort kills rank 0 too. When
  // rank 0 fails as well it aborts at once and ends the wait; when it does not (it waits in a
  // collective), the run stops two seconds later.
  if (status != 0 && g_world.size > 1) {
    if (g_world.rank != 0) std::this_thread::sleep_for(std::chrono::seconds(2));
    MPI_Abort(MPI_COMM_WORLD, status);
  }
  MPI_Finalize();
  return status;
}

void worker_failure(std::string_view message, int status) {
  const std::string line = "netdp: error (rank " + std::to_string(g_world.rank) + " of " +
                           std::to_string(g_world.size) + "): " + std::string(message) + "\n";
  const int descriptor = g_error_descriptor >= 0 ? g_error_descriptor : STDERR_FILENO;
  [[maybe_unused]] const ssize_t written = write(descriptor, line.data(), line.size());
  if (g_world.size > 1) MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

}  // namespace netdp::mpi
