// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Local search and exact branch-and-bound search for max_{s ∈ {±1}^m} sᵀKs (sign_max_detail.hpp).

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "accounting/worst_case/sign_max_detail.hpp"

namespace netdp::accounting::sign_max_detail {

double quadratic_form(const DenseMatrix& k, const Vector& s) { return s.dot(k * s); }

Vector signs_of(const Vector& v) {
  return v.unaryExpr([](double x) { return x < 0.0 ? -1.0 : 1.0; });
}

Vector sign_graph_colouring(const DenseMatrix& k) {
  const Eigen::Index m = k.rows();
  Vector s = Vector::Zero(m);
  std::vector<Eigen::Index> queue;
  queue.reserve(static_cast<std::size_t>(m));
  for (Eigen::Index root = 0; root < m; ++root) {
    if (s(root) != 0.0) continue;
    s(root) = 1.0;
    queue.assign(1, root);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const Eigen::Index i = queue[head];
      for (Eigen::Index j = 0; j < m; ++j) {
        if (s(j) != 0.0 || k(i, j) == 0.0) continue;
        s(j) = k(i, j) > 0.0 ? s(i) : -s(i);
        queue.push_back(j);
      }
    }
  }
  return s;
}

namespace {

// Gain of flipping s_j alone, given field h = K s: −4 (s_j h_j − K_jj).
double flip_gain(const DenseMatrix& k, const Vector& s, const Vector& h, Eigen::Index j) {
  return -4.0 * (s(j) * h(j) - k(j, j));
}

void flip(const DenseMatrix& k, Vector& s, Vector& h, Eigen::Index j) {
  h.noalias() -= (2.0 * s(j)) * k.col(j);
  s(j) = -s(j);
}

}  // namespace

double improve_locally(const DenseMatrix& k, Vector& s, bool two_flip, double min_gain) {
  const Eigen::Index m = k.rows();
  Vector h = k * s;
  Vector gains(m);
  // Every accepted move gains > min_gain >= 0 and there are finitely many sign vectors, so this
  // terminates; the pass cap only guards against a pathological min_gain of 0 with rounding noise.
  const std::int64_t max_moves = 64 * static_cast<std::int64_t>(m) + 1024;
  for (std::int64_t move = 0; move < max_moves; ++move) {
    for (Eigen::Index j = 0; j < m; ++j) gains(j) = flip_gain(k, s, h, j);
    Eigen::Index best = 0;
    if (m > 0 && gains.maxCoeff(&best) > min_gain) {
      flip(k, s, h, best);
      continue;
    }
    if (!two_flip) break;
    // Pair flip gain: gain_i + gain_j + 8 s_i s_j K_ij.
    double best_pair = min_gain;
    Eigen::Index bi = -1, bj = -1;
    for (Eigen::Index j = 1; j < m; ++j) {
      for (Eigen::Index i = 0; i < j; ++i) {
        const double gain = gains(i) + gains(j) + 8.0 * s(i) * s(j) * k(i, j);
        if (gain > best_pair) {
          best_pair = gain;
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0) break;
    flip(k, s, h, bi);
    flip(k, s, h, bj);
  }
  return quadratic_form(k, s);
}

namespace {

// Branch and bound on the permuted matrix p. Variables are fixed in index order; level l means
// variables first..l-1 are fixed. fields.col(l)(j), j >= l, holds Σ_{fixed i} p_ji s_i at level l
// (one column per level, so no floating-point drift from undoing updates).
class Search {
 public:
  Search(const DenseMatrix& p, const std::vector<double>& trailing_max, std::int64_t budget)
      : p_(p), trailing_max_(trailing_max), budget_(budget), m_(p.rows()), fields_(p.rows(), p.rows() + 1) {}

  // Maximises over the trailing block first..m-1 with s_first = +1; returns false when the budget
  // ran out. best_value/best_signs (entries first..m-1 meaningful) must hold an incumbent.
  bool run(Eigen::Index first, double& best_value, Vector& best_signs) {
    best_value_ = best_value;
    best_ = best_signs;
    current_ = best_signs;
    current_(first) = 1.0;
    fields_.col(first + 1).segment(first + 1, m_ - first - 1) =
        p_.col(first).segment(first + 1, m_ - first - 1);
    const bool done = descend(first + 1, p_(first, first));
    best_value = best_value_;
    best_signs = best_;
    return done;
  }

  std::int64_t nodes() const { return nodes_; }

 private:
  bool descend(Eigen::Index level, double fixed_value) {
    if (level == m_) {
      if (fixed_value > best_value_) {
        best_value_ = fixed_value;
        best_ = current_;
      }
      return true;
    }
    const double field = fields_(level, level);
    const double first_sign = field < 0.0 ? -1.0 : 1.0;
    for (const double sign : {first_sign, -first_sign}) {
      if (budget_ >= 0 && nodes_ >= budget_) return false;
      ++nodes_;
      // Fix s_level = sign: value += 2 sign field_level + p_ll; fields of later variables move.
      const double value = fixed_value + 2.0 * sign * field + p_(level, level);
      double free_abs = 0.0;
      for (Eigen::Index j = level + 1; j < m_; ++j) {
        const double updated = fields_(j, level) + sign * p_(j, level);
        fields_(j, level + 1) = updated;
        free_abs += std::abs(updated);
      }
      // sᵀPs = fixed + 2 Σ_free s_j field_j + (free block) <= fixed + 2 Σ|field_j| + trailing max.
      if (value + 2.0 * free_abs + trailing_max_[static_cast<std::size_t>(level + 1)] <= best_value_)
        continue;
      current_(level) = sign;
      if (!descend(level + 1, value)) return false;
    }
    return true;
  }

  const DenseMatrix& p_;
  const std::vector<double>& trailing_max_;
  std::int64_t budget_;
  Eigen::Index m_;
  DenseMatrix fields_;
  Vector current_;
  Vector best_;
  double best_value_ = 0.0;
  std::int64_t nodes_ = 0;
};

}  // namespace

SearchOutcome branch_and_bound(const DenseMatrix& k, const Vector& incumbent_signs, double incumbent_value,
                               std::int64_t node_budget) {
  const Eigen::Index m = k.rows();
  SearchOutcome outcome;
  outcome.best_value = incumbent_value;
  outcome.best_signs = incumbent_signs;
  if (m == 0) {
    outcome.completed = true;
    return outcome;
  }
  // Most strongly coupled variables first: their fields decide the most.
  const Vector row_abs = k.cwiseAbs().rowwise().sum();
  std::vector<Eigen::Index> order(static_cast<std::size_t>(m));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return row_abs(a) > row_abs(b); });
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, Eigen::Index> perm(m);
  for (Eigen::Index i = 0; i < m; ++i) perm.indices()(i) = order[static_cast<std::size_t>(i)];
  // p = Pᵀ K P with p_ij = k(order[i], order[j]).
  const DenseMatrix p = perm.transpose() * k * perm;

  // Russian doll: trailing_max[l] = max over the block l..m-1 (trailing_max[m] = 0).
  std::vector<double> trailing_max(static_cast<std::size_t>(m + 1), 0.0);
  Vector signs = Vector::Ones(m);
  Search search(p, trailing_max, node_budget);
  for (Eigen::Index first = m - 1; first >= 0; --first) {
    // Incumbent: the previous block's maximiser extended by the better sign of s_first.
    const double coupling =
        p.row(first).segment(first + 1, m - first - 1).dot(signs.segment(first + 1, m - first - 1));
    signs(first) = coupling < 0.0 ? -1.0 : 1.0;
    if (signs(first) < 0.0) signs.segment(first, m - first) *= -1.0;
    double best =
        trailing_max[static_cast<std::size_t>(first + 1)] + p(first, first) + 2.0 * std::abs(coupling);
    if (first == 0) {
      const Vector given = perm.transpose() * incumbent_signs;
      if (incumbent_value > best) {
        best = incumbent_value;
        signs = given(0) < 0.0 ? Vector(-given) : given;
      }
    }
    if (!search.run(first, best, signs)) {
      outcome.nodes = search.nodes();
      return outcome;
    }
    trailing_max[static_cast<std::size_t>(first)] = best;
  }
  outcome.completed = true;
  outcome.nodes = search.nodes();
  outcome.best_signs = perm * signs;
  outcome.best_value = quadratic_form(k, outcome.best_signs);
  return outcome;
}

}  // namespace netdp::accounting::sign_max_detail
