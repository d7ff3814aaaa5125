// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The linear-view engine's pairs as Gaussian account rows (linear_view_pairs.hpp).

#include "accounting/linear_system/linear_view_pairs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "netdp/util/check.hpp"

namespace netdp::accounting::detail {

namespace {

SensitivityFields sensitivity_fields(const PairSensitivity& p) {
  return {p.sensitivity_squared_ones,
          p.sensitivity_squared_sum_abs,
          p.sensitivity_squared_exact,
          p.sensitivity_squared_vector_lower,
          p.sensitivity_squared_vector_upper,
          p.sensitivity_squared_certified,
          p.sensitivity,
          p.exact};
}

}  // namespace

UnitPair unit_pair(const PairSensitivity& p, const graph::Graph* g) {
  const auto name = [g](graph::NodeId v) { return g ? g->label(v) : std::to_string(v); };
  require(std::isfinite(p.sensitivity),
          "{} reads target {}'s change exactly: it leaves the range of the noise, so the view is not private "
          "and no finite mu bounds the loss (as with zip-dl, whose zero-sum noise cancels in the sum of a "
          "node's messages, or a sender with one neighbour)",
          p.observers.empty() ? std::string("an eavesdropper on every message")
                              : "observer " + name(p.observers.front()),
          name(p.target));
  const double uncapped =
      p.sensitivity_squared_uncapped ? std::sqrt(*p.sensitivity_squared_uncapped) : p.sensitivity;
  return {p.observers.empty() ? p.target : p.observers.front(),
          p.target,
          p.sensitivity,
          uncapped,
          sensitivity_fields(p),
          p.certificate,
          p.certificate_failure_probability};
}

// Every verdict is kept: the caller decides what to show.
void collect_warnings(const PairSensitivity& p, const graph::Graph* g, std::vector<Diagnostic>& warnings) {
  const auto name = [g](graph::NodeId v) { return g ? g->label(v) : std::to_string(v); };
  append_diagnostics(warnings, p.warnings,
                     fmt::format("pair ({}, {}): ",
                                 name(p.observers.empty() ? p.target : p.observers.front()), name(p.target)));
}

}  // namespace netdp::accounting::detail
