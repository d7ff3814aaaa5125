// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "output.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <utility>

#include "netdp/linalg/thread_policy.hpp"
#include "netdp/util/atomic_file.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::cli {
namespace {
std::string& invoked_command_storage() {
  static std::string command;
  return command;
}
}  // namespace

const std::string& invoked_command() { return invoked_command_storage(); }
void set_invoked_command(std::string command) { invoked_command_storage() = std::move(command); }

void add_output_options(CLI::App* command, OutputOptions& options, const std::string& json_help) {
  command->add_flag("--json", options.json, json_help);
  command->add_flag("--quiet", options.quiet,
                    "No progress, notes or warnings on stderr (errors are still printed)");
  command->add_option_function<int>(
      "--threads",
      [](int threads) {
        require(threads >= 1 && threads <= linalg::kMaxThreads, "--threads must be in 1..{}, got {}",
                linalg::kMaxThreads, threads);
        omp_set_num_threads(threads);
      },
      fmt::format(
          "Threads for the parallel parts, 1..{} (default: OMP_NUM_THREADS, else every core); results "
          "do not depend on it",
          linalg::kMaxThreads));
  command->add_option_function<std::uint64_t>(
      "--seed",
      [&options](std::uint64_t seed) {
        options.seed = seed;
        options.seed_given = true;
      },
      "Seed of everything the command draws at random: random graph SPECs without their own seed=, "
      "random gossip schedules, training (replaces train.seed) (default: 1)");
  command->add_option_function<std::string>(
      "--max-memory", [](const std::string& size) { util::set_memory_limit(util::parse_memory_size(size)); },
      "Refuse a run whose memory estimate exceeds this, e.g. 512M or 4G (default: the machine's memory)");
}

void print_result(const OutputOptions& options, const nlohmann::json& result,
                  const std::function<void(std::ostream&)>& human) {
  if (options.json) {
    std::cout << dump_json(result) << "\n";
  } else {
    human(std::cout);
  }
}

void write_warnings(const std::vector<std::string>& warnings, const OutputOptions& options) {
  if (options.quiet) return;
  std::vector<std::pair<std::string, std::size_t>> distinct;
  for (const std::string& w : warnings) {
    const auto it =
        std::find_if(distinct.begin(), distinct.end(), [&w](const auto& d) { return d.first == w; });
    if (it == distinct.end()) {
      distinct.emplace_back(w, 1);
    } else {
      ++it->second;
    }
  }
  for (const auto& [message, count] : distinct) {
    std::cerr << "netdp: warning: " << message << (count > 1 ? " (" + std::to_string(count) + " times)" : "")
              << "\n";
  }
}

void warn_graph_notes(const graph::Graph& g, const OutputOptions& options) {
  write_warnings(g.notes(), options);
}

void write_text_file(const std::string& path, const std::string& text) {
  util::write_file_atomically(path, [&text](std::ostream& out) { out << text; });
}

}  // namespace netdp::cli
