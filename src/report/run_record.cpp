// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <stdexcept>
#include <string>
#include <string_view>

#include "netdp/report/report.hpp"

namespace netdp::report {
namespace {

/// `word` as one shell word: as it is when it has only characters no shell treats specially, else
/// in single quotes (a quote inside written '\'').
std::string shell_quoted(std::string_view word) {
  constexpr std::string_view kPlain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:=/+@%";
  if (!word.empty() && word.find_first_not_of(kPlain) == std::string_view::npos) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  quoted += '\'';
  return quoted;
}

template <class Value>
Value field(const nlohmann::json& object, const char* name, const Value& fallback) {
  if (!object.contains(name) || object[name].is_null()) return fallback;
  try {
    return object[name].get<Value>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(std::string("run record: \"network\".\"") + name + "\" has the wrong type");
  }
}

}  // namespace

std::string command_line(int argc, const char* const* argv) {
  std::string line = "netdp";
  for (int i = 1; i < argc; ++i) {
    line += ' ';
    line += shell_quoted(argv[i]);
  }
  return line;
}

nlohmann::json run_record(const std::string& command, const gossip::NetworkSpec& network) {
  nlohmann::json n{{"graph", network.graph},
                   {"lcc", network.lcc},
                   {"weights", network.matrix.empty() ? std::string(gossip::weighting_name(network.weighting))
                                                      : std::string("matrix")},
                   {"matrix", network.matrix},
                   {"seed", network.seed},
                   {"source_column", network.read.source_column},
                   {"target_column", network.read.target_column},
                   {"weight_column", network.read.weight_column},
                   {"symmetrize", network.read.symmetrize}};
  return {{"netdp_version", NETDP_VERSION},
          {"command", command.empty() ? nlohmann::json(nullptr) : nlohmann::json(command)},
          {"network", std::move(n)}};
}

gossip::NetworkSpec network_from_record(const nlohmann::json& run) {
  if (!run.is_object() || !run.contains("network") || !run["network"].is_object())
    throw std::invalid_argument("run record: no \"network\" object");
  const nlohmann::json& n = run["network"];
  gossip::NetworkSpec spec;
  spec.graph = field<std::string>(n, "graph", spec.graph);
  spec.lcc = field<bool>(n, "lcc", false);
  spec.matrix = field<std::string>(n, "matrix", "");
  if (spec.matrix.empty())
    spec.weighting = gossip::parse_weighting(field<std::string>(n, "weights", "hamilton"));
  spec.seed = field<std::uint64_t>(n, "seed", 1);
  spec.read.source_column = field<std::string>(n, "source_column", "");
  spec.read.target_column = field<std::string>(n, "target_column", "");
  spec.read.weight_column = field<std::string>(n, "weight_column", "");
  spec.read.symmetrize = field<bool>(n, "symmetrize", false);
  return spec;
}

}  // namespace netdp::report
