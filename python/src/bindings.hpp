// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the binding files of the compiled module (_netdp) share: numpy arrays that own C++ buffers,
// long calls run without the GIL and interruptible by Ctrl-C, and one bind_* per library module.
// No accounting happens in the bindings: each function converts Python values to the library's
// types, calls the library, and hands back numpy arrays (docs/reference/python.md).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace netdp::python {

namespace py = pybind11;

/// A numpy array that owns `values` (moved to the heap; freed with the array).
template <class T>
py::array_t<T> owned_array(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* heap = new std::vector<T>(std::move(values));
  const py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(shape, heap->data(), owner);
}

/// Waits, without the GIL, until `done()` holds (checked under `mutex` whenever `changed` is
/// notified), checking for signals every 100 ms. True when a signal's handler raised (Ctrl-C:
/// KeyboardInterrupt is then set as the Python error), false once done.
template <class Done>
bool wait_interruptibly(std::mutex& mutex, std::condition_variable& changed, Done done) {
  bool interrupted = false;
  const py::gil_scoped_release release;
  std::unique_lock<std::mutex> lock(mutex);
  while (!changed.wait_for(lock, std::chrono::milliseconds(100), done)) {
    lock.unlock();
    {
      const py::gil_scoped_acquire acquire;
      interrupted = PyErr_CheckSignals() != 0;
    }
    if (interrupted) break;
    lock.lock();
  }
  return interrupted;
}

/// Held by every call into the library (run_interruptibly, the row streams): the calls run one at
/// a time. A BLAS thread count is process-wide (SingleThreadedBlas sets it around its work), and a
/// result's last digits depend on it, so a call running beside another (an interrupted call that
/// finishes in the background, or two Python threads) could otherwise change the other's output.
inline std::mutex& library_mutex() {
  static std::mutex mutex;
  return mutex;
}

/// Runs `work` (a callable that owns everything it touches and never touches Python) on a thread
/// of its own, without the GIL, and waits for its result, checking for signals every 100 ms: Ctrl-C
/// raises KeyboardInterrupt within that time, and the interrupted work finishes in the background,
/// its result dropped (the library has no point to stop at); the next call waits for it. An
/// exception of `work` is rethrown.
template <class Result, class Work>
Result run_interruptibly(Work work) {
  struct State {
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::optional<Result> result;
    std::exception_ptr error;
  };
  const auto state = std::make_shared<State>();
  std::thread([state, work = std::move(work)]() mutable {
    try {
      const std::lock_guard<std::mutex> one_call(library_mutex());
      state->result.emplace(work());
    } catch (...) {
      state->error = std::current_exception();
    }
    {
      const std::lock_guard<std::mutex> lock(state->mutex);
      state->done = true;
    }
    state->finished.notify_all();
  }).detach();
  if (wait_interruptibly(state->mutex, state->finished, [&state] { return state->done; }))
    throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals set
  if (state->error) std::rethrow_exception(state->error);
  return std::move(*state->result);
}

void bind_graph(py::module_& m);
void bind_gossip(py::module_& m);
void bind_dp(py::module_& m);
void bind_accounting(py::module_& m);
void bind_mf(py::module_& m);
void bind_learn(py::module_& m);
void bind_report(py::module_& m);

}  // namespace netdp::python
