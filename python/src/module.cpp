// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The compiled part of `import netdp` (the package in python/netdp wraps it): one bind_* per
// library module (bindings.hpp), the process's thread policy, how the library's errors become
// Python exceptions, and the version.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <exception>
#include <new>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "netdp/linalg/thread_policy.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

PYBIND11_MODULE(_netdp, m) {
  using namespace netdp;
  namespace py = pybind11;
  if (const auto note = linalg::apply_thread_policy().note)
    PyErr_WarnEx(PyExc_RuntimeWarning, note->c_str(), 1);
  m.doc() = "The compiled core of netdp; use the netdp package, which wraps it.";
  m.attr("__version__") = NETDP_VERSION;
  // A run refused for its memory estimate is MemoryError, an input file that cannot be opened
  // FileNotFoundError; other refusals stay ValueError.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const util::MemoryLimitError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError,
                      util::out_of_memory_message("this netdp call", "netdp.set_max_memory").c_str());
    } catch (const FileError& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    }
  });
  m.def(
      "set_max_memory",
      [](const std::optional<std::string>& size) {
        util::set_memory_limit(size ? util::parse_memory_size(*size) : 0.0);
      },
      py::arg("size"),
      "Refuse (MemoryError) any call whose memory estimate exceeds this, as --max-memory (e.g. '512M'); "
      "None: the machine's memory.");
  python::bind_graph(m);
  python::bind_gossip(m);
  python::bind_dp(m);
  python::bind_accounting(m);
  python::bind_mf(m);
  python::bind_learn(m);
  python::bind_report(m);
}
