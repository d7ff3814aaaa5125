// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The processes of a run started by `mpirun` (Open MPI), or the one process of a run started
// alone. A binary started without mpirun never initialises MPI: it runs exactly as a
// single-process build would, under the sanitizers too (docs/reference/mpi.md).

#include <string_view>

namespace netdp::mpi {

/// This process's place in the run: rank 0 of 1 unless a Session started MPI.
struct World {
  int rank = 0;
  int size = 1;
  bool distributed() const { return size > 1; }
};

/// World of the Session alive in this process ({0, 1} without one).
World world();

/// Whether the process was started by mpirun (the launcher's environment: OMPI_COMM_WORLD_SIZE,
/// PMIX_RANK or PMI_RANK), the only case in which a Session initialises MPI.
bool started_by_launcher();

/// MPI for the life of the process, when started by a launcher (MPI_THREAD_FUNNELED: only the
/// main thread calls MPI; OpenMP threads work inside each rank). Ranks other than 0 write nothing
/// to standard output or error: rank 0 speaks for the run, and a rank's failure reaches the user
/// through worker_failure.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  /// Ends the run with the command's exit status: MPI_Finalize when it is 0 on this rank, else
  /// MPI_Abort with it, which stops every rank (a rank that failed alone would leave the others
  /// waiting for it). Returns the status for main to return.
  int finish(int status);

 private:
  bool active_ = false;
  bool finished_ = false;
};

/// Writes "netdp: error (rank R of P): <message>" to the process's own standard error (kept by the
/// Session when it silenced the rank) and stops every rank with MPI_Abort(status).
[[noreturn]] void worker_failure(std::string_view message, int status);

}  // namespace netdp::mpi
