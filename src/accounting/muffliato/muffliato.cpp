// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato Theorem 1 / 12 / 13 fast path (see muffliato.hpp and
// docs/reference/accounting-muffliato.md). Two passes over blocks of columns of W_{0:t}:
//   pass 1: every column, to get each message's noise norm N_t(w, observers);
//   pass 2: the target columns, to add (W_{0:t})²_{w,u} / N_t(w, observers), one observer set's
//           messages at a time.
// Both propagate with the sparse W_t only; blocks run in parallel (OpenMP).

#include "netdp/accounting/muffliato/muffliato.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>

#include "accounting/muffliato/muffliato_propagation.hpp"
#include "netdp/accounting/muffliato/muffliato_joint_view.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

namespace {

using graph::NodeId;
using NodeSets = std::vector<std::vector<NodeId>>;

/// The messages of one round: sender w to observer set g, sorted by sender.
struct RoundMessages {
  std::vector<NodeId> sender;
  std::vector<std::uint32_t> observer;
};

/// All messages: round t uses lists[list_of[t]]; its noise norms are at
/// norm[base[t] .. base[t] + size).
struct MessagePlan {
  std::vector<RoundMessages> lists;
  std::vector<std::size_t> list_of;
  std::vector<std::size_t> base;
  std::size_t total = 0;
};

/// The messages of one round by observer: those of observer set g are message[start[g] ..
/// start[g + 1]), in the round's (sender) order.
struct ObserverOrder {
  std::vector<std::size_t> start;
  std::vector<std::uint32_t> message;
};

ObserverOrder by_observer(const RoundMessages& round, std::size_t num_observers) {
  ObserverOrder order;
  order.start.assign(num_observers + 1, 0);
  for (const std::uint32_t g : round.observer) ++order.start[g + 1];
  std::partial_sum(order.start.begin(), order.start.end(), order.start.begin());
  order.message.resize(round.observer.size());
  std::vector<std::size_t> next(order.start.begin(), order.start.end() - 1);
  for (std::size_t m = 0; m < round.observer.size(); ++m)
    order.message[next[round.observer[m]]++] = static_cast<std::uint32_t>(m);
  return order;
}

/// Messages of a round along its communication graph (detail::step_neighbours).
RoundMessages round_messages(const std::vector<std::vector<NodeId>>& neighbours,
                             const std::vector<std::vector<std::uint32_t>>& observer_sets_of) {
  // Directed (sender w, receiver v) pairs along every edge {v, w} of the round.
  std::vector<std::pair<NodeId, NodeId>> arcs;
  for (std::size_t v = 0; v < neighbours.size(); ++v) {
    for (NodeId w : neighbours[v]) arcs.emplace_back(w, static_cast<NodeId>(v));
  }
  std::vector<std::pair<NodeId, std::uint32_t>> messages;
  for (const auto& [w, v] : arcs) {
    for (std::uint32_t g : observer_sets_of[v]) {
      const auto& sets_of_w = observer_sets_of[w];
      // A colluder's own messages are post-processing of the coalition's view.
      if (std::find(sets_of_w.begin(), sets_of_w.end(), g) == sets_of_w.end()) messages.emplace_back(w, g);
    }
  }
  std::sort(messages.begin(), messages.end());
  messages.erase(std::unique(messages.begin(), messages.end()), messages.end());
  RoundMessages round;
  round.sender.reserve(messages.size());
  round.observer.reserve(messages.size());
  for (const auto& [w, g] : messages) {
    round.sender.push_back(w);
    round.observer.push_back(g);
  }
  return round;
}

MessagePlan plan_messages(const gossip::Schedule& schedule, const NodeSets& observers) {
  const auto sets_of = detail::membership(observers, schedule.num_nodes());
  MessagePlan plan;
  const std::size_t rounds = schedule.rounds();
  if (schedule.is_fixed()) {
    plan.lists.push_back(round_messages(detail::step_neighbours(schedule.at(0)), sets_of));
    plan.list_of.assign(rounds, 0);
  } else {
    for (std::size_t t = 0; t < rounds; ++t) {
      plan.lists.push_back(round_messages(detail::step_neighbours(schedule.at(t)), sets_of));
      plan.list_of.push_back(t);
    }
  }
  plan.base.resize(rounds);
  for (std::size_t t = 0; t < rounds; ++t) {
    plan.base[t] = plan.total;
    plan.total += plan.lists[plan.list_of[t]].sender.size();
  }
  return plan;
}

/// Visits the state W_{0:t} of a block at each round's message time:
/// visit(t, block) is called before W_t is applied (paper) or after (authors' code).
template <typename Visit>
void run_rounds(detail::ColumnBlock& block, const detail::SchedulePlan& steps, MessageConvention messages,
                Visit&& visit) {
  for (std::size_t t = 0; t < steps.rounds(); ++t) {
    if (messages == MessageConvention::paper) visit(t, block);
    block.apply(steps.at(t));
    if (messages == MessageConvention::authors_code) visit(t, block);
  }
}

/// Whether a sorted set has a node in [begin, end).
bool has_member_in(const std::vector<NodeId>& set, NodeId begin, NodeId end) {
  const auto it = std::lower_bound(set.begin(), set.end(), begin);
  return it != set.end() && *it < end;
}

/// Σ_{j in [begin, end), column begin+j not an excluded node} x_j², x = row restricted to the block.
double squares_excluding(const double* row, NodeId begin, NodeId end, const std::vector<NodeId>& excluded) {
  auto it = std::lower_bound(excluded.begin(), excluded.end(), begin);
  double sum = 0.0;
  NodeId from = begin;
  for (; it != excluded.end() && *it < end; ++it) {
    sum += detail::sum_of_squares(row, from - begin, *it - begin);
    from = *it + 1;
  }
  return sum + detail::sum_of_squares(row, from - begin, end - begin);
}

struct Blocks {
  std::vector<std::vector<NodeId>> columns;  ///< the columns of each block
  std::size_t capacity = 0;
};

Blocks consecutive_blocks(const std::vector<NodeId>& nodes, std::size_t width) {
  Blocks blocks;
  for (std::size_t b = 0; b < nodes.size(); b += width) {
    const std::size_t end = std::min(nodes.size(), b + width);
    blocks.columns.emplace_back(nodes.begin() + static_cast<std::ptrdiff_t>(b),
                                nodes.begin() + static_cast<std::ptrdiff_t>(end));
    blocks.capacity = std::max(blocks.capacity, end - b);
  }
  return blocks;
}

class Progress {
 public:
  Progress(const MuffliatoOptions& options, std::size_t total) : callback_(options.progress), total_(total) {}
  void step() {
    if (!callback_) return;
#pragma omp critical(netdp_muffliato_progress)
    callback_(++done_, total_);
  }

 private:
  const std::function<void(std::size_t, std::size_t)>& callback_;
  std::size_t total_ = 0;
  std::size_t done_ = 0;
};

/// Pass 1: the noise norm of every message, N_t(w, g) = Σ_j (W_{0:t})²_{w,j} over
/// all columns j (minus the observer set's columns when its noise is known).
std::vector<double> noise_norms(std::size_t n, const detail::SchedulePlan& steps, const MessagePlan& plan,
                                const NodeSets& observers, const MuffliatoOptions& options, std::size_t width,
                                Progress& progress) {
  std::vector<NodeId> nodes(n);
  std::iota(nodes.begin(), nodes.end(), NodeId{0});
  const Blocks blocks = consecutive_blocks(nodes, width);
  const bool known = options.observer_noise == ObserverNoise::known;
  // Each block's share of every norm is added in block order (an ordered loop), so the norms are
  // the same bits for every thread count; a thread holds one block's shares at a time.
  std::vector<double> norms(plan.total, 0.0);
  util::ParallelErrors errors;
#pragma omp parallel
  {
    std::optional<detail::ColumnBlock> block;
    std::vector<double> share;
    errors.run(-1, [&] {
      block.emplace(n, blocks.capacity);
      share.resize(plan.total);
    });
#pragma omp for ordered schedule(static, 1)
    for (std::size_t b = 0; b < blocks.columns.size(); ++b) {
      bool computed = false;
      errors.run(static_cast<std::int64_t>(b), [&] {
        if (!block) return;
        const NodeId begin = blocks.columns[b].front();
        const NodeId end = blocks.columns[b].back() + 1;
        block->reset(blocks.columns[b]);
        std::fill(share.begin(), share.end(), 0.0);
        run_rounds(*block, steps, options.messages, [&](std::size_t t, const detail::ColumnBlock& state) {
          const RoundMessages& round = plan.lists[plan.list_of[t]];
          double* out = share.data() + plan.base[t];
          for (std::size_t m = 0; m < round.sender.size();) {
            const NodeId w = round.sender[m];
            const double* row = state.row(w);
            const double full = detail::sum_of_squares(row, 0, state.width());
            for (; m < round.sender.size() && round.sender[m] == w; ++m) {
              const auto& excluded = observers[round.observer[m]];
              out[m] = known && has_member_in(excluded, begin, end)
                           ? squares_excluding(row, begin, end, excluded)
                           : full;
            }
          }
        });
        progress.step();
        computed = true;
      });
#pragma omp ordered
      if (computed) {
        for (std::size_t m = 0; m < norms.size(); ++m) norms[m] += share[m];
      }
    }
  }
  errors.rethrow();
  return norms;
}

/// Ratio numerator for a group target: (Σ_u |x_u|)² (correct) or Σ_u x_u² (eq. 18 as printed).
double group_numerator(const double* row, std::size_t width, GroupSensitivity rule) {
  if (rule == GroupSensitivity::paper_sum_of_squares) return detail::sum_of_squares(row, 0, width);
  const double s = detail::sum_of_absolute(row, width);
  return s * s;
}

/// 1 / N for each noise norm N > 0, and 0 (the message is skipped) for N = 0, in place.
void invert_norms(std::vector<double>& norms) {
  for (double& norm : norms) norm = norm > 0.0 ? 1.0 / norm : 0.0;
}

/// Pass 2: S(g, j) for every observer set g and target set j, from scales = 1 / N (invert_norms).
DenseMatrix theorem1_sums(std::size_t n, const detail::SchedulePlan& steps, const MessagePlan& plan,
                          const std::vector<double>& scales, std::size_t num_observers,
                          const NodeSets& targets, const MuffliatoOptions& options, std::size_t width,
                          Progress& progress) {
  const bool all_singletons =
      std::all_of(targets.begin(), targets.end(), [](const auto& set) { return set.size() == 1; });
  // Singleton targets: blocks of `width` targets, one column each. Groups: one block per group.
  Blocks blocks;
  std::vector<std::size_t> first_target;  // the target index of each block's first output column
  if (all_singletons) {
    std::vector<NodeId> nodes;
    for (const auto& set : targets) nodes.push_back(set.front());
    blocks = consecutive_blocks(nodes, width);
    for (std::size_t b = 0; b < blocks.columns.size(); ++b) first_target.push_back(b * width);
  } else {
    for (std::size_t j = 0; j < targets.size(); ++j) {
      blocks.columns.push_back(targets[j]);
      blocks.capacity = std::max(blocks.capacity, targets[j].size());
      first_target.push_back(j);
    }
  }
  DenseMatrix sums =
      DenseMatrix::Zero(static_cast<Eigen::Index>(num_observers), static_cast<Eigen::Index>(targets.size()));
  std::vector<ObserverOrder> orders;  // singleton targets only: a group adds one number per message
  if (all_singletons)
    for (const RoundMessages& round : plan.lists) orders.push_back(by_observer(round, num_observers));
  util::ParallelErrors errors;
#pragma omp parallel
  {
    std::optional<detail::ColumnBlock> block;
    const std::size_t out_width = all_singletons ? blocks.capacity : 1;
    std::vector<double> out;
    errors.run(-1, [&] {
      block.emplace(n, blocks.capacity);
      out.resize(num_observers * out_width);
    });
#pragma omp for schedule(dynamic, 1)
    for (std::size_t b = 0; b < blocks.columns.size(); ++b) {
      errors.run(static_cast<std::int64_t>(b), [&] {
        if (!block) return;
        block->reset(blocks.columns[b]);
        const std::size_t columns = all_singletons ? block->width() : 1;
        std::fill(out.begin(), out.end(), 0.0);
        run_rounds(*block, steps, options.messages, [&](std::size_t t, const detail::ColumnBlock& state) {
          const RoundMessages& round = plan.lists[plan.list_of[t]];
          // A zero scale (zero norm) means the message carries nothing but the observers' own values.
          const double* scale = scales.data() + plan.base[t];
          if (all_singletons) {
            const ObserverOrder& order = orders[plan.list_of[t]];
            for (std::size_t g = 0; g < num_observers; ++g) {
              const std::size_t begin = order.start[g];
              if (begin == order.start[g + 1]) continue;
              detail::accumulate_capped_ratios(state.row(0), columns, order.message.data() + begin,
                                               order.start[g + 1] - begin, round.sender.data(), scale,
                                               out.data() + g * columns);
            }
            return;
          }
          for (std::size_t m = 0; m < round.sender.size(); ++m) {
            if (!(scale[m] > 0.0)) continue;
            const double* row = state.row(round.sender[m]);
            out[round.observer[m]] +=
                group_numerator(row, state.width(), options.group_sensitivity) * scale[m];
          }
        });
        for (std::size_t c = 0; c < columns; ++c) {
          const auto j = static_cast<Eigen::Index>(first_target[b] + c);
          for (std::size_t g = 0; g < num_observers; ++g)
            sums(static_cast<Eigen::Index>(g), j) = out[g * columns + c];
        }
        progress.step();
      });
    }
  }
  errors.rethrow();
  return sums;
}

}  // namespace

Guarantee bound_guarantee(MuffliatoBound bound) {
  return bound == MuffliatoBound::exact ? Guarantee::exact_joint_view : Guarantee::paper_formula;
}

MuffliatoLosses muffliato_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                 const MuffliatoOptions& options) {
  if (options.bound == MuffliatoBound::paper) return muffliato_theorem1_losses(schedule, query, options);
  return muffliato_joint_view_losses(schedule, query, options);
}

MuffliatoLosses muffliato_theorem1_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                          const MuffliatoOptions& options) {
  require_positive(options.sigma, "sigma");
  require_positive(options.sensitivity, "sensitivity");
  const std::size_t n = schedule.num_nodes();
  require(schedule.rounds() >= 1, "the number of rounds T must be >= 1, got {}", schedule.rounds());
  detail::require_finite_entries(schedule);
  if (options.require_connected) detail::require_connected_support(schedule);
  const NodeSets observers = detail::validated_node_sets(query.observers, n, "observer");
  const NodeSets targets = detail::validated_node_sets(query.targets, n, "target");
  require(observers.size() <= std::size_t{1} << 31, "too many observer sets ({})", observers.size());
  // The observers × targets sums and their capped copy (moved into the account), 8 bytes each.
  // Also the message plan (16 bytes per round), and once planned, every message's noise norm and one
  // share of them per thread (8 bytes each).
  const double pair_bytes =
      16.0 * static_cast<double>(observers.size()) * static_cast<double>(targets.size());
  const auto rounds = static_cast<double>(schedule.rounds());
  util::require_memory(
      pair_bytes + 16.0 * rounds, "the Muffliato Theorem 1 accountant",
      fmt::format("16 bytes per (observer, target) pair: {} x {}, and 16 per round, T = {} rounds",
                  observers.size(), targets.size(), schedule.rounds()),
      "account fewer pairs (`observer`, `target`) or lower the rounds (`rounds`)");

  const std::size_t width =
      options.block_columns > 0 ? options.block_columns : detail::default_block_columns(n);
  const detail::SchedulePlan steps(schedule);
  const MessagePlan plan = plan_messages(schedule, observers);
  const auto messages = static_cast<double>(plan.total);
  util::require_memory(
      pair_bytes + 16.0 * rounds + 8.0 * messages * (1.0 + static_cast<double>(omp_get_max_threads())),
      "the Muffliato Theorem 1 accountant",
      fmt::format("16 bytes per (observer, target) pair: {} x {}, and 8 per message and thread, {:.3g} "
                  "messages over T = {} rounds, {} threads",
                  observers.size(), targets.size(), messages, schedule.rounds(), omp_get_max_threads()),
      "account fewer pairs (`observer`, `target`) or lower the rounds (`rounds`)");
  const std::size_t pass1_blocks = (n + width - 1) / width;
  const bool all_singletons =
      std::all_of(targets.begin(), targets.end(), [](const auto& set) { return set.size() == 1; });
  const std::size_t pass2_blocks = all_singletons ? (targets.size() + width - 1) / width : targets.size();
  Progress progress(options, pass1_blocks + pass2_blocks);

  std::vector<double> scales = noise_norms(n, steps, plan, observers, options, width, progress);
  invert_norms(scales);
  DenseMatrix sums =
      theorem1_sums(n, steps, plan, scales, observers.size(), targets, options, width, progress);
  detail::zero_undefined(sums, observers, targets, n);

  std::vector<double> caps;
  caps.reserve(targets.size());
  for (const auto& set : targets) caps.push_back(static_cast<double>(set.size()));
  return MuffliatoLosses(std::move(sums), std::nullopt, std::move(caps), observers, targets,
                         options.sensitivity, options.sigma);
}

MuffliatoLosses muffliato_all_pairs(const gossip::Schedule& schedule, const MuffliatoOptions& options) {
  return muffliato_losses(schedule, MuffliatoQuery{}, options);
}

MuffliatoLosses muffliato_from_observer(const gossip::Schedule& schedule, graph::NodeId observer,
                                        const MuffliatoOptions& options) {
  return muffliato_losses(schedule, MuffliatoQuery{{{observer}}, {}}, options);
}

MuffliatoLosses muffliato_colluders(const gossip::Schedule& schedule, std::vector<graph::NodeId> colluders,
                                    const MuffliatoOptions& options) {
  require(!colluders.empty(), "the set of colluders must not be empty");
  return muffliato_losses(schedule, MuffliatoQuery{{std::move(colluders)}, {}}, options);
}

MuffliatoLosses muffliato_group(const gossip::Schedule& schedule, std::vector<graph::NodeId> group,
                                const MuffliatoOptions& options) {
  require(!group.empty(), "the target group must not be empty");
  return muffliato_losses(schedule, MuffliatoQuery{{}, {std::move(group)}}, options);
}

std::vector<std::size_t> communication_counts(const gossip::Schedule& schedule) {
  const std::size_t n = schedule.num_nodes();
  const auto sets_of = detail::membership(detail::singleton_sets(n), n);
  std::vector<std::size_t> counts(n, 0);
  const std::size_t distinct = schedule.is_fixed() ? 1 : schedule.rounds();
  const std::size_t repeat = schedule.is_fixed() ? schedule.rounds() : 1;
  for (std::size_t t = 0; t < distinct; ++t) {
    const RoundMessages round = round_messages(detail::step_neighbours(schedule.at(t)), sets_of);
    for (std::uint32_t v : round.observer) counts[v] += repeat;
  }
  return counts;
}

}  // namespace netdp::accounting
