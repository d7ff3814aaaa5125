// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The progress reporter of every command (progress.hpp).

#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <utility>

namespace netdp::cli {

namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(100);
constexpr std::size_t kBarWidth = 24;

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

ProgressReporter::ProgressReporter(std::ostream& out, bool enabled, std::string command,
                                   std::chrono::milliseconds show_after)
    : out_(out), enabled_(enabled), command_(std::move(command)), show_after_(show_after) {}

ProgressReporter ProgressReporter::for_stderr(bool quiet, std::string command) {
  return ProgressReporter(std::cerr, !quiet && isatty(fileno(stderr)) != 0, std::move(command));
}

ProgressReporter::~ProgressReporter() { finish(); }

void ProgressReporter::phase(std::string name, std::size_t total) {
  finish();
  name_ = std::move(name);
  total_ = total;
  done_ = 0;
  active_ = true;
  shown_ = false;
  start_ = Clock::now();
  last_draw_ = start_;
}

void ProgressReporter::update(std::size_t done, std::size_t total) {
  done_ = done;
  total_ = total;
  if (!enabled_ || !active_) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < show_after_ || (shown_ && now - last_draw_ < kRedrawEvery)) return;
  last_draw_ = now;
  draw(false);
}

void ProgressReporter::finish() {
  if (!active_) return;
  // A phase that ran for a second is closed with its time, even if it reported no progress.
  if (enabled_ && (shown_ || Clock::now() - start_ >= show_after_)) draw(true);
  active_ = false;
}

std::function<void(std::size_t, std::size_t)> ProgressReporter::callback() {
  return [this](std::size_t done, std::size_t total) { update(done, total); };
}

void ProgressReporter::draw(bool final) {
  shown_ = true;
  const double elapsed = seconds(Clock::now() - start_);
  std::string line = fmt::format("\r{}: {}", command_, name_);
  if (total_ > 0) {
    const double fraction = std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
    const auto filled = static_cast<std::size_t>(fraction * kBarWidth);
    line += fmt::format("  [{}{}] {:3.0f}%", std::string(filled, '#'), std::string(kBarWidth - filled, '.'),
                        100.0 * fraction);
    if (final) {
      line += fmt::format("  {:.1f} s", elapsed);
    } else if (fraction > 0.0) {
      line += fmt::format("  {:.1f} s, about {:.1f} s left", elapsed, elapsed * (1.0 - fraction) / fraction);
    } else {
      line += fmt::format("  {:.1f} s", elapsed);
    }
  } else if (done_ > 0) {
    line += fmt::format("  {} done  {:.1f} s", done_, elapsed);
  } else {
    line += fmt::format("  {:.1f} s", elapsed);
  }
  line += "\x1b[K";  // clear what a longer previous line left
  if (final) line += "\n";
  out_ << line << std::flush;
}

}  // namespace netdp::cli
