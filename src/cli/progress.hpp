// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: the one progress reporter of every command. On stderr, only when it
// is a terminal and --quiet is not given; a phase is shown once it has run for a second (short
// phases stay silent), as "netdp account: accountant  [########........]  51%  3.2 s, about 3.1 s
// left", redrawn at most ten times a second, and closed with its total time.

#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>

namespace netdp::cli {

class ProgressReporter {
 public:
  /// A reporter writing to `out` when `enabled`; `command` prefixes every line ("netdp account"). A
  /// phase is shown once it has run for `show_after`.
  ProgressReporter(std::ostream& out, bool enabled, std::string command,
                   std::chrono::milliseconds show_after = std::chrono::seconds(1));
  /// A reporter for stderr: enabled when stderr is a terminal and not `quiet`.
  static ProgressReporter for_stderr(bool quiet, std::string command);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// Ends the current phase (if any) and starts `name`, of `total` units (0: not known, then the
  /// line shows the units done and the time, without an ETA).
  void phase(std::string name, std::size_t total = 0);
  /// `done` units of the current phase (and the total, when it changes); cheap when nothing is
  /// drawn. Call from one thread at a time.
  void update(std::size_t done, std::size_t total);
  void update(std::size_t done) { update(done, total_); }
  /// Ends the current phase: its line, if shown, gets the phase's total time and a newline.
  void finish();
  /// update() as a (done, total) callback for the library's long computations.
  std::function<void(std::size_t, std::size_t)> callback();

 private:
  using Clock = std::chrono::steady_clock;
  void draw(bool final);

  std::ostream& out_;
  bool enabled_;
  std::string command_;
  std::chrono::milliseconds show_after_;
  std::string name_;
  std::size_t total_ = 0;
  std::size_t done_ = 0;
  bool active_ = false;
  bool shown_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace netdp::cli
