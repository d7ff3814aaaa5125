// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Graph SPEC strings: `NAME[:key=value,...]` or `READER:PATH`, e.g.
// `er:n=100,p=0.2,seed=1`, `hypercube:d=8`, `karate`, `edgelist:/data/g.txt`.
// See docs/reference/graph.md and spec_help() for every name and key.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/graph/io.hpp"

namespace netdp::graph {

/// A SPEC split into its name and parameters (in the order written). For the
/// file readers (edgelist, mtx, csv) `path` holds everything after the colon.
struct ParsedSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
  std::string path;
};

/// Splits a SPEC syntactically (no check of names or keys); throws on an empty
/// name, an empty key, a parameter without '=' or a repeated key.
ParsedSpec parse_spec(const std::string& spec);

/// Builds the graph a SPEC describes. Unknown names or keys, missing required
/// keys and malformed numbers throw std::invalid_argument naming them and
/// listing the valid choices. A random graph without its own `seed=` is drawn from `default_seed`.
/// `read` tells the file readers which columns to read and whether to symmetrize (io.hpp); options
/// that do not apply to the SPEC's kind are refused.
Graph from_spec(const std::string& spec, std::uint64_t default_seed = 1, const ReadOptions& read = {});

/// Human-readable list of every SPEC name with its keys and defaults.
std::string spec_help();

}  // namespace netdp::graph
