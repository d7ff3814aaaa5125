// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The leverages of a view in Arb's ball arithmetic (modular_view.hpp, ball_leverages): certified
// intervals, the precision raised until they are tight.

#include <arb.h>
#include <arb_mat.h>
#include <flint/fmpq.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "accounting/exact/modular_view.hpp"
#include "accounting/exact/rational_rows.hpp"

namespace netdp::accounting::detail {

using graph::NodeId;

double ball_bytes(double balls, long bits) {
  // An arb_t (48 bytes) and, beyond two limbs, its mantissa on the heap with an allocation header.
  return balls * (48.0 + (bits > 128 ? static_cast<double>(bits) / 8.0 + 16.0 : 0.0));
}

double ball_leverage_bytes(double rows, double columns, double targets, long bits) {
  return ball_bytes(rows * columns + 2.0 * rows * rows + 2.0 * rows * targets, bits);
}

namespace {

/// The rows' Gram over the kept columns, lower triangle mirrored, by dot products of rows: arb_mat_mul's
/// blocks go through big integers, slow on rows whose entries span many binary orders, as powers of
/// W do.
void direct_gram(arb_mat_t gram, const arb_mat_t b, long prec) {
  const slong r = arb_mat_nrows(b);
  for (slong i = 0; i < r; ++i)
    for (slong j = 0; j <= i; ++j) {
      arb_dot(arb_mat_entry(gram, i, j), nullptr, 0, arb_mat_entry(b, i, 0), 1, arb_mat_entry(b, j, 0), 1,
              arb_mat_ncols(b), prec);
      if (j < i) arb_set(arb_mat_entry(gram, j, i), arb_mat_entry(gram, i, j));
    }
}

/// Each sender's propagated rows x_t = e_wᵀ W^t, t = 0..last, over all n columns.
struct SenderPowers {
  std::size_t size = 0;                      // n
  std::vector<NodeId> senders;               // sorted
  std::vector<std::vector<arb_ptr>> powers;  // per sender, per t
  SenderPowers() = default;
  SenderPowers(const SenderPowers&) = delete;
  SenderPowers& operator=(const SenderPowers&) = delete;
  ~SenderPowers() {
    for (auto& rows : powers)
      for (arb_ptr x : rows) _arb_vec_clear(x, static_cast<slong>(size));
  }
  std::size_t index(NodeId w) const {
    return static_cast<std::size_t>(std::lower_bound(senders.begin(), senders.end(), w) - senders.begin());
  }
};

/// The Gram of the rows (t_i, w_i) over the kept columns under a symmetric W: the full Gram's entry
/// is (W^(t_i + t_j))_{w_i w_j} = x_{w_i, s}·x_{w_j, t_i + t_j − s} for any split s, one dot product per
/// (sender pair, power) instead of one per pair of rows; the columns not kept are subtracted.
void hankel_gram(arb_mat_t gram, const SenderPowers& p, std::span<const TimedSender> messages,
                 std::span<const std::size_t> rows, std::span<const std::size_t> dropped, long prec) {
  const auto r = static_cast<slong>(rows.size());
  const slong d = static_cast<slong>(dropped.size());
  const std::size_t senders = p.senders.size();
  std::vector<std::size_t> who(rows.size());
  std::size_t longest = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) who[i] = p.index(messages[rows[i]].sender);
  for (const auto& powers : p.powers) longest = std::max(longest, powers.size());
  // The rows at the dropped columns.
  arb_ptr at_dropped = _arb_vec_init(std::max<slong>(1, r * d));
  for (slong i = 0; i < r; ++i)
    for (slong c = 0; c < d; ++c)
      arb_set(at_dropped + i * d + c,
              p.powers[who[static_cast<std::size_t>(i)]][messages[rows[static_cast<std::size_t>(i)]].time] +
                  dropped[static_cast<std::size_t>(c)]);
  std::unordered_map<std::size_t, std::size_t> known;  // (sender pair, power) -> slot in `values`
  std::vector<arb_struct> values;
  values.reserve(static_cast<std::size_t>(r) * static_cast<std::size_t>(r + 1) / 2);
  const auto n = static_cast<slong>(p.size);
  for (slong i = 0; i < r; ++i)
    for (slong j = 0; j <= i; ++j) {
      std::size_t hi = who[static_cast<std::size_t>(i)];
      std::size_t lo = who[static_cast<std::size_t>(j)];
      if (hi < lo) std::swap(hi, lo);
      const std::size_t power =
          messages[rows[static_cast<std::size_t>(i)]].time + messages[rows[static_cast<std::size_t>(j)]].time;
      const std::size_t key = (hi * senders + lo) * (2 * longest + 1) + power;
      auto [it, added] = known.try_emplace(key, values.size());
      if (added) {
        const std::size_t first = std::min(power, p.powers[hi].size() - 1);
        values.emplace_back();
        arb_init(&values.back());
        arb_dot(&values.back(), nullptr, 0, p.powers[hi][first], 1, p.powers[lo][power - first], 1, n, prec);
      }
      arb_dot(arb_mat_entry(gram, i, j), &values[it->second], 1, at_dropped + i * d, 1, at_dropped + j * d, 1,
              d, prec);
      if (j < i) arb_set(arb_mat_entry(gram, j, i), arb_mat_entry(gram, i, j));
    }
  for (arb_struct& v : values) arb_clear(&v);
  _arb_vec_clear(at_dropped, std::max<slong>(1, r * d));
}

}  // namespace

std::optional<std::vector<LeverageBounds>> ball_leverages(const RationalSchedule& schedule, bool fixed,
                                                          std::span<const TimedSender> messages,
                                                          std::span<const std::size_t> rows,
                                                          std::span<const std::uint8_t> keep,
                                                          std::span<const NodeId> targets, double max_bytes,
                                                          long max_bits) {
  const std::size_t n = schedule.num_nodes();
  std::vector<std::size_t> column_of(n, n);
  std::size_t k = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (keep[j] != 0) column_of[j] = k++;
  const auto r = static_cast<slong>(rows.size());
  std::vector<LeverageBounds> out(targets.size());
  if (r == 0) {
    for (LeverageBounds& b : out) b = {0.0, 0.0};
    return out;
  }
  // A symmetric fixed W gives the Gram from each sender's powers (hankel_gram), when keeping them pays.
  std::vector<NodeId> senders;
  std::size_t last_time = 0;
  for (const std::size_t i : rows) {
    senders.push_back(messages[i].sender);
    last_time = std::max(last_time, messages[i].time);
  }
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  const double power_balls =
      static_cast<double>(senders.size()) * static_cast<double>(last_time + 1) * static_cast<double>(n);
  const double rows_d = static_cast<double>(r);
  const double sender_pairs = static_cast<double>(senders.size()) * static_cast<double>(senders.size());
  const double dots = std::min(rows_d * rows_d, sender_pairs * static_cast<double>(2 * last_time + 1)) / 2.0;
  const double hankel_work =
      dots * static_cast<double>(n) + rows_d * rows_d / 2.0 * static_cast<double>(n - k) + power_balls;
  const bool hankel =
      fixed && schedule.symmetric() && hankel_work < rows_d * rows_d / 2.0 * static_cast<double>(k);
  const auto& matrices = schedule.impl().matrices;
  for (long prec = 256; prec <= max_bits; prec = prec * 3 / 2) {
    const double bytes =
        ball_leverage_bytes(rows_d, static_cast<double>(k), static_cast<double>(targets.size()), prec) +
        (hankel ? ball_bytes(power_balls + dots, prec) : 0.0);
    if (bytes > max_bytes) return std::nullopt;  // the memory limit: a counted give-up
    // W's entries as balls at this precision.
    std::vector<std::vector<arb_struct>> w(matrices.size());
    for (std::size_t t = 0; t < matrices.size(); ++t) {
      w[t].resize(matrices[t].value.size());
      for (std::size_t e = 0; e < matrices[t].value.size(); ++e) {
        arb_init(&w[t][e]);
        fmpq_t q;
        fmpq_init(q);
        fmpq_set_mpq(q, matrices[t].value[e].get_mpq_t());
        arb_set_fmpq(&w[t][e], q, prec);
        fmpq_clear(q);
      }
    }
    arb_mat_t b, gram, chol, rhs, solved;
    arb_mat_init(b, r, static_cast<slong>(k));
    // The rows e_wᵀ W_{t−1}⋯W_0 of the chosen messages (a fixed W: one propagation per sender).
    arb_ptr x = _arb_vec_init(static_cast<slong>(n));
    arb_ptr y = _arb_vec_init(static_cast<slong>(n));
    SenderPowers powers;
    powers.size = n;
    if (hankel) {
      powers.senders = senders;
      powers.powers.resize(senders.size());
    }
    std::size_t current = 0;
    const auto keep_power = [&] {
      if (!hankel) return;
      arb_ptr copy = _arb_vec_init(static_cast<slong>(n));
      _arb_vec_set(copy, x, static_cast<slong>(n));
      powers.powers[current].push_back(copy);
    };
    // A fixed schedule holds one matrix: its steps ask for t = 0.
    const auto step = [&](std::size_t t) {
      const auto& m = matrices[t];
      _arb_vec_zero(y, static_cast<slong>(n));
      for (std::size_t i = 0; i < n; ++i) {
        if (arb_is_zero(x + i)) continue;
        for (std::size_t e = m.start[i]; e < m.start[i + 1]; ++e)
          arb_addmul(y + m.column[e], x + i, &w[t][e], prec);
      }
      _arb_vec_swap(x, y, static_cast<slong>(n));
      keep_power();
    };
    const auto start = [&](NodeId sender) {
      _arb_vec_zero(x, static_cast<slong>(n));
      arb_one(x + sender);
      if (hankel) current = powers.index(sender);
      keep_power();
    };
    std::vector<slong> row_of(messages.size(), -1);
    for (slong i = 0; i < r; ++i) row_of[rows[static_cast<std::size_t>(i)]] = i;
    const auto store = [&](std::size_t message) {
      for (std::size_t j = 0; j < n; ++j)
        if (column_of[j] < n)
          arb_set(arb_mat_entry(b, row_of[message], static_cast<slong>(column_of[j])), x + j);
    };
    propagate_messages(messages, std::vector<std::size_t>(rows.begin(), rows.end()), fixed, start, step,
                       store);
    _arb_vec_clear(x, static_cast<slong>(n));
    _arb_vec_clear(y, static_cast<slong>(n));
    for (auto& ws : w)
      for (arb_struct& e : ws) arb_clear(&e);
    // ℓ_u = ‖L⁻¹ c_u‖² with B Bᵀ = L Lᵀ, c_u column u of B.
    arb_mat_init(gram, r, r);
    if (hankel) {
      std::vector<std::size_t> dropped;  // columns not kept on which some row is non-zero
      for (std::size_t c = 0; c < n; ++c) {
        if (column_of[c] < n) continue;
        for (slong i = 0; i < r; ++i) {
          const TimedSender& m = messages[rows[static_cast<std::size_t>(i)]];
          if (!arb_is_zero(powers.powers[powers.index(m.sender)][m.time] + c)) {
            dropped.push_back(c);
            break;
          }
        }
      }
      hankel_gram(gram, powers, messages, rows, dropped, prec);
    } else {
      direct_gram(gram, b, prec);
    }
    arb_mat_init(chol, r, r);
    const bool proven = arb_mat_cho(chol, gram, prec) != 0;
    bool resolved = proven;
    if (proven) {
      arb_mat_init(rhs, r, static_cast<slong>(targets.size()));
      for (std::size_t t = 0; t < targets.size(); ++t) {
        const std::size_t c = column_of[targets[t]];
        if (c == n) continue;  // a dropped column: its caller knows its value
        for (slong i = 0; i < r; ++i)
          arb_set(arb_mat_entry(rhs, i, static_cast<slong>(t)), arb_mat_entry(b, i, static_cast<slong>(c)));
      }
      arb_mat_init(solved, r, static_cast<slong>(targets.size()));
      arb_mat_solve_tril(solved, chol, rhs, 0, prec);
      arb_t sum;
      arb_init(sum);
      arf_t bound;
      arf_init(bound);
      for (std::size_t t = 0; t < targets.size() && resolved; ++t) {
        arb_zero(sum);
        for (slong i = 0; i < r; ++i)
          arb_addmul(sum, arb_mat_entry(solved, i, static_cast<slong>(t)),
                     arb_mat_entry(solved, i, static_cast<slong>(t)), prec);
        arb_get_ubound_arf(bound, sum, prec);
        out[t].upper = std::min(1.0, arf_get_d(bound, ARF_RND_UP));
        arb_get_lbound_arf(bound, sum, prec);
        out[t].lower = std::max(0.0, arf_get_d(bound, ARF_RND_DOWN));
        // A ball wider than 10⁻⁹ is not worth reporting at this precision: refine.
        resolved = std::isfinite(out[t].upper) && out[t].upper - out[t].lower <= 1e-9;
      }
      arf_clear(bound);
      arb_clear(sum);
      arb_mat_clear(solved);
      arb_mat_clear(rhs);
    }
    arb_mat_clear(chol);
    arb_mat_clear(gram);
    arb_mat_clear(b);
    if (resolved) return out;
  }
  return std::nullopt;
}

}  // namespace netdp::accounting::detail
