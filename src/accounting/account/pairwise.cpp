// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The pairwise-account interface (pairwise.hpp): the protocol's schedule, the rows of an account
// and their ε statistics.

#include "netdp/accounting/account/pairwise.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "accounting/account/pairwise_detail.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

gossip::Schedule protocol_schedule(const Protocol& protocol, std::size_t rounds) {
  if (protocol.drawn) {
    require(protocol.drawn->is_fixed() || protocol.drawn->rounds() >= rounds,
            "the drawn schedule has {} matrices, the accountant needs {}", protocol.drawn->rounds(), rounds);
    require(protocol.drawn->num_nodes() == protocol.network.num_nodes(),
            "the drawn schedule is on {} nodes, the network has {}", protocol.drawn->num_nodes(),
            protocol.network.num_nodes());
    return protocol.drawn->is_fixed() ? gossip::Schedule::fixed(protocol.drawn->at(0), rounds)
                                      : *protocol.drawn;
  }
  return gossip::schedule_from_spec(protocol.schedule, protocol.network, protocol.weighting, rounds,
                                    protocol.seed);
}

namespace {

using detail::gdp_epsilon_or_zero;
using detail::kRowChunk;

}  // namespace

std::vector<PairRow> PairwiseAccount::rows(double sigma, double delta) const {
  std::vector<PairRow> out;
  stream_rows(sigma, delta,
              [&out](std::span<const PairRow> block) { out.insert(out.end(), block.begin(), block.end()); });
  return out;
}

std::vector<PairRow> PairwiseAccount::rows(double sigma, double delta,
                                           std::span<const graph::NodeId> observers,
                                           std::span<const graph::NodeId> targets) const {
  std::vector<PairRow> out;
  stream_selected_rows(sigma, delta, observers, targets, [&out](std::span<const PairRow> block) {
    out.insert(out.end(), block.begin(), block.end());
  });
  return out;
}

void PairwiseAccount::stream_selected_rows(double sigma, double delta,
                                           std::span<const graph::NodeId> observers,
                                           std::span<const graph::NodeId> targets,
                                           const RowSink& sink) const {
  const auto selected = [](std::span<const graph::NodeId> set, graph::NodeId node) {
    return set.empty() || std::find(set.begin(), set.end(), node) != set.end();
  };
  std::vector<bool> observer_seen(observers.size(), false);
  std::vector<bool> target_seen(targets.size(), false);
  const auto mark = [](std::span<const graph::NodeId> set, std::vector<bool>& seen, graph::NodeId node) {
    for (std::size_t i = 0; i < set.size(); ++i) seen[i] = seen[i] || set[i] == node;
  };
  std::optional<graph::NodeId> observer;
  bool observer_selected = false;
  std::vector<PairRow> kept;
  stream_rows(sigma, delta, [&](std::span<const PairRow> rows) {
    kept.clear();
    for (const PairRow& row : rows) {
      if (observer != row.observer) {  // a new observer block
        observer = row.observer;
        mark(observers, observer_seen, row.observer);
        observer_selected = selected(observers, row.observer);
      }
      if (!observer_selected) continue;
      mark(targets, target_seen, row.target);
      if (selected(targets, row.target)) kept.push_back(row);
    }
    if (!kept.empty()) sink(kept);
  });
  // A node asked for that the account does not hold is an error, not an empty answer.
  for (std::size_t i = 0; i < observers.size(); ++i) {
    require(observer_seen[i], "observer {} is not an observer of this account", observers[i]);
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    require(target_seen[i], "target {} is not a target of this account", targets[i]);
  }
}

// ----------------------------------------------------------------- statistics

void RangeAccumulator::add(double x) {
  min_ = count_ == 0 ? x : std::min(min_, x);
  max_ = count_ == 0 ? x : std::max(max_, x);
  sum_.add(x);
  ++count_;
}

void RangeAccumulator::merge(const RangeAccumulator& other) {
  if (other.count_ == 0) return;
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = count_ == 0 ? other.max_ : std::max(max_, other.max_);
  sum_.add(other.sum_);
  count_ += other.count_;
}

Range RangeAccumulator::range() const {
  if (count_ == 0) return {};
  const double inf = std::numeric_limits<double>::infinity();
  const double mean = sum_.value() / static_cast<double>(count_);
  // Rounded up: an upper bound on the exact mean, which is itself at most the max.
  return {count_, min_, std::min(max_, std::nextafter(std::nextafter(mean, inf), inf)), max_};
}

namespace detail {

double statistic_value(const RangeAccumulator& epsilon, Statistic statistic) {
  if (statistic == Statistic::pair) {
    require(epsilon.count() == 1, "the statistic 'pair' needs exactly one pair, the account has {}",
            epsilon.count());
  }
  const Range r = epsilon.range();
  return statistic == Statistic::mean ? r.mean : r.max;
}

}  // namespace detail

double epsilon_statistic(std::span<const PairRow> rows, Statistic statistic) {
  RangeAccumulator epsilon;
  for (const PairRow& row : rows) epsilon.add(row.epsilon);
  return detail::statistic_value(epsilon, statistic);
}

double PairwiseAccount::epsilon_statistic(Statistic statistic, double sigma, double delta) const {
  RangeAccumulator epsilon;
  stream_rows(sigma, delta, [&epsilon](std::span<const PairRow> rows) {
    for (const PairRow& row : rows) epsilon.add(row.epsilon);
  });
  return detail::statistic_value(epsilon, statistic);
}

namespace detail {

void validate_query(const Protocol& protocol, const PairQuery& q, Method method) {
  const std::size_t n = protocol.network.num_nodes();
  require(n >= 2, "accounting needs at least 2 nodes, got {}", n);
  require(protocol.rounds >= 1, "rounds must be >= 1, got {}", protocol.rounds);
  require_positive(protocol.sensitivity, "the sensitivity Δ");
  if (q.alpha) require(std::isfinite(*q.alpha) && *q.alpha > 1.0, "alpha must be > 1, got {}", *q.alpha);
  if (q.observer) {
    require(*q.observer < n, "observer {} is out of range: the graph has nodes 0..{}", *q.observer, n - 1);
  }
  if (q.target)
    require(*q.target < n, "target {} is out of range: the graph has nodes 0..{}", *q.target, n - 1);
  for (std::size_t i = 0; i < q.observers.size(); ++i) {
    require(q.observers[i] < n, "observers: node {} is out of range 0..{}", q.observers[i], n - 1);
    if (i > 0)
      require(q.observers[i - 1] < q.observers[i],
              "observers: a share must be strictly increasing, got {} after {}", q.observers[i],
              q.observers[i - 1]);
  }
  require(q.observers.empty() || (!q.observer && q.colluders.empty() && q.group.empty()),
          "a share of `observers` does not combine with `observer`, `colluders` or `group`");
  for (const auto& [set, name] : {std::pair{&q.colluders, "colluders"}, std::pair{&q.group, "group"}}) {
    for (std::size_t i = 0; i < set->size(); ++i) {
      const graph::NodeId node = (*set)[i];
      require(node < n, "{}: node {} is out of range 0..{}", name, node, n - 1);
      require(std::find(set->begin(), set->begin() + static_cast<std::ptrdiff_t>(i), node) ==
                  set->begin() + static_cast<std::ptrdiff_t>(i),
              "{}: node {} is repeated", name, node);
    }
  }
  require(method == Method::muffliato || q.group.empty(),
          "a group of targets applies to the muffliato method only");
  require(!(q.observer && !q.colluders.empty()), "give either an observer or colluders, not both");
  if (q.observer && q.target) {
    require(*q.observer != *q.target, "the observer and the target are the same node {}", *q.target);
  }
  if (q.target) {
    require(std::find(q.colluders.begin(), q.colluders.end(), *q.target) == q.colluders.end(),
            "target {} is one of the colluders", *q.target);
  }
  // A coalition or a group that leaves no (observer, target) pair would print an empty account.
  const auto set_text = [](const std::vector<graph::NodeId>& set) {
    std::string out = "{";
    for (std::size_t i = 0; i < set.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(set[i]);
    }
    return out + "}";
  };
  const auto in = [](const std::vector<graph::NodeId>& set, graph::NodeId v) {
    return std::find(set.begin(), set.end(), v) != set.end();
  };
  for (const graph::NodeId v : q.group) {
    require(!in(q.colluders, v),
            "the group {} and the colluders {} share node {}: the coalition holds part of the group's data, "
            "so no (observer, target) pair is left to account",
            set_text(q.group), set_text(q.colluders), v);
  }
  require(q.colluders.empty() || q.colluders.size() < n,
          "the colluders {} are all {} nodes of the graph: no target is left outside the coalition",
          set_text(q.colluders), n);
  if (q.observer) {
    require(!in(q.group, *q.observer),
            "the observer {} is in the group {}: no (observer, target) pair is left to account", *q.observer,
            set_text(q.group));
  }
  require(q.group.empty() || q.observer || !q.colluders.empty() || q.group.size() < n,
          "the group {} holds all {} nodes of the graph: no observer is left outside it", set_text(q.group),
          n);
}

std::vector<graph::NodeId> all_nodes(std::size_t n) {
  std::vector<graph::NodeId> nodes(n);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  return nodes;
}

bool asks_observer(const PairQuery& query, graph::NodeId v) {
  if (query.observer) return *query.observer == v;
  return query.observers.empty() || std::binary_search(query.observers.begin(), query.observers.end(), v);
}

std::vector<graph::NodeId> asked_observers(const PairQuery& query, std::size_t n) {
  if (query.observer) return {*query.observer};
  return query.observers.empty() ? all_nodes(n) : query.observers;
}

}  // namespace detail

}  // namespace netdp::accounting
