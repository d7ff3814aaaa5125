// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Gaussian accounts of shares of the observers as grids, and put back together (pairwise.hpp): a
// run split across processes builds one share per process and joins them where it writes.

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

std::optional<double> GaussianPairwiseAccount::certificate_failure_probability() const {
  if (!info_.certificate_failure_probability) return std::nullopt;
  return shown_failure_probability(*info_.certificate_failure_probability);
}

UnitMuGrid GaussianPairwiseAccount::grid() const {
  if (!sparse_) return grid_;
  UnitMuGrid out;
  out.observers = grid_.observers;
  out.targets = grid_.targets;
  const auto rows = static_cast<Eigen::Index>(grid_.targets.size());
  const auto cols = static_cast<Eigen::Index>(grid_.observers.size());
  out.uncapped = DenseMatrix::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
  out.reported = out.uncapped;
  for (std::size_t column = 0; column < grid_.observers.size(); ++column) {
    for (std::size_t k = first_pair_[column]; k < first_pair_[column + 1]; ++k) {
      const auto [j, i] =
          std::pair(static_cast<Eigen::Index>(sparse_rows_[k]), static_cast<Eigen::Index>(column));
      out.uncapped(j, i) = sparse_uncapped_[k];
      (*out.reported)(j, i) = sparse_reported_[k];
    }
  }
  out.sensitivity = grid_.sensitivity;
  return out;
}

namespace {

/// The reported unit μ of cell (j, i) of a grid, as GaussianPairwiseAccount reads it.
double reported_value(const UnitMuGrid& grid, Eigen::Index j, Eigen::Index i) {
  if (grid.reported) return (*grid.reported)(j, i);
  return std::min(grid.uncapped(j, i), grid.caps[static_cast<std::size_t>(j)]);
}

}  // namespace

std::unique_ptr<GaussianPairwiseAccount> join_gaussian_accounts(
    std::vector<UnitMuGrid> grids, std::vector<GaussianPairwiseAccount::Info> infos) {
  require(!grids.empty() && grids.size() == infos.size(), "joining accounts: {} grids and {} infos",
          grids.size(), infos.size());
  if (grids.size() == 1)
    return std::make_unique<GaussianPairwiseAccount>(std::move(grids[0]), std::move(infos[0]));
  GaussianPairwiseAccount::Info info = infos.front();
  info.diagnostics.clear();
  double failure = 0.0;
  bool any_failure = false;
  for (const GaussianPairwiseAccount::Info& part : infos) {
    require(part.method == info.method && part.sensitivity == info.sensitivity && part.alpha == info.alpha &&
                part.certificate == info.certificate,
            "joining accounts: the shares disagree on the method, Δ, α or certificate ('{}' and '{}')",
            info.method, part.method);
    merge_diagnostics(info.diagnostics, part.diagnostics);
    if (part.certificate_failure_probability) {
      any_failure = true;
      failure += *part.certificate_failure_probability;
    }
  }
  if (any_failure) info.certificate_failure_probability = std::min(1.0, failure);

  // Every column of every share, in increasing observer order: (observer, share, column).
  struct Column {
    graph::NodeId observer;
    std::size_t share;
    Eigen::Index column;
  };
  std::vector<Column> columns;
  UnitMuGrid out;
  for (std::size_t k = 0; k < grids.size(); ++k) {
    const UnitMuGrid& g = grids[k];
    for (std::size_t i = 0; i < g.observers.size(); ++i)
      columns.push_back({g.observers[i], k, static_cast<Eigen::Index>(i)});
    out.targets.insert(out.targets.end(), g.targets.begin(), g.targets.end());
  }
  std::sort(columns.begin(), columns.end(),
            [](const Column& a, const Column& b) { return a.observer < b.observer; });
  for (std::size_t i = 0; i < columns.size(); ++i) {
    require(i == 0 || columns[i - 1].observer != columns[i].observer,
            "joining accounts: observer {} is in two shares", columns[i].observer);
    out.observers.push_back(columns[i].observer);
  }
  std::sort(out.targets.begin(), out.targets.end());
  out.targets.erase(std::unique(out.targets.begin(), out.targets.end()), out.targets.end());
  // One cap per target when every share has the same caps on the same targets; the reported values
  // otherwise.
  const bool same_caps = std::all_of(grids.begin(), grids.end(), [&](const UnitMuGrid& g) {
    return !g.reported && g.targets == out.targets && g.caps == grids.front().caps;
  });
  const bool certificates =
      std::any_of(grids.begin(), grids.end(), [](const UnitMuGrid& g) { return g.certificates.has_value(); });
  const bool lower =
      std::any_of(grids.begin(), grids.end(), [](const UnitMuGrid& g) { return g.lower.has_value(); });
  const auto rows = static_cast<Eigen::Index>(out.targets.size());
  const auto cols = static_cast<Eigen::Index>(out.observers.size());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.uncapped = DenseMatrix::Constant(rows, cols, nan);
  if (same_caps) {
    out.caps = grids.front().caps;
  } else {
    out.reported = DenseMatrix::Constant(rows, cols, nan);
  }
  if (certificates) out.certificates = UnitMuGrid::CertificateMatrix::Constant(rows, cols, info.certificate);
  if (lower) out.lower = DenseMatrix::Zero(rows, cols);
  // Each share's rows in the whole grid, and where each of its columns' sensitivity fields start
  // (they are kept in stream order: column by column, a field per pair).
  std::vector<std::vector<Eigen::Index>> row_of(grids.size());
  std::vector<std::vector<std::size_t>> first_field(grids.size());
  for (std::size_t k = 0; k < grids.size(); ++k) {
    const UnitMuGrid& g = grids[k];
    for (const graph::NodeId target : g.targets)
      row_of[k].push_back(std::lower_bound(out.targets.begin(), out.targets.end(), target) -
                          out.targets.begin());
    first_field[k].assign(g.observers.size() + 1, 0);
    for (Eigen::Index i = 0; i < g.uncapped.cols(); ++i)
      first_field[k][static_cast<std::size_t>(i) + 1] =
          first_field[k][static_cast<std::size_t>(i)] +
          static_cast<std::size_t>((g.uncapped.col(i).array() == g.uncapped.col(i).array()).count());
  }
  for (Eigen::Index c = 0; c < cols; ++c) {
    const auto [observer, k, i] = columns[static_cast<std::size_t>(c)];
    const UnitMuGrid& g = grids[k];
    for (Eigen::Index j = 0; j < g.uncapped.rows(); ++j) {
      const Eigen::Index row = row_of[k][static_cast<std::size_t>(j)];
      out.uncapped(row, c) = g.uncapped(j, i);
      if (out.reported) (*out.reported)(row, c) = reported_value(g, j, i);
      if (g.certificates) (*out.certificates)(row, c) = (*g.certificates)(j, i);
      if (g.lower) (*out.lower)(row, c) = (*g.lower)(j, i);
    }
    if (!g.sensitivity.empty()) {
      const auto begin =
          g.sensitivity.begin() + static_cast<std::ptrdiff_t>(first_field[k][static_cast<std::size_t>(i)]);
      const auto end = g.sensitivity.begin() +
                       static_cast<std::ptrdiff_t>(first_field[k][static_cast<std::size_t>(i) + 1]);
      out.sensitivity.insert(out.sensitivity.end(), begin, end);
    }
  }
  grids.clear();
  // A tally over observer sets counts them over the whole account, shares without it included.
  for (Diagnostic& d : info.diagnostics)
    if (!d.tally.empty() && d.of > 0) d = tally_diagnostic(d.kind, d.tally, d.count, out.observers.size());
  return std::make_unique<GaussianPairwiseAccount>(std::move(out), std::move(info));
}

}  // namespace netdp::accounting
