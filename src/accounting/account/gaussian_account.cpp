// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// GaussianPairwiseAccount (pairwise.hpp): the unit μ of every pair, stored as a grid or pair by
// pair, streamed as rows at any (σ, δ).

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "accounting/account/pairwise_detail.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

using detail::kRowChunk;

// ------------------------------------------------------------ Gaussian account

namespace {

bool is_pair(double unit_mu) { return !std::isnan(unit_mu); }

void require_valid_unit_mu(double reported, double uncapped, graph::NodeId observer, graph::NodeId target) {
  require(std::isfinite(reported) && reported >= 0.0 && std::isfinite(uncapped) && uncapped >= 0.0,
          "pair ({}, {}): unit μ must be finite and >= 0, got {} (uncapped {})", observer, target, reported,
          uncapped);
}

}  // namespace

GaussianPairwiseAccount::GaussianPairwiseAccount(std::span<const UnitPair> pairs, Info info)
    : info_(std::move(info)) {
  require_info();
  detail::TablePages pages;
  // The columns (observers, in order of appearance) and rows (distinct targets, increasing).
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const UnitPair& p = pairs[k];
    if (k == 0 || p.observer != pairs[k - 1].observer) {
      require(std::find(grid_.observers.begin(), grid_.observers.end(), p.observer) == grid_.observers.end(),
              "the pairs of observer {} are not contiguous", p.observer);
      grid_.observers.push_back(p.observer);
      if (k > 0) first_pair_.push_back(k);
    } else {
      require(p.target > pairs[k - 1].target, "the targets of observer {} are not increasing ({} after {})",
              p.observer, p.target, pairs[k - 1].target);
    }
    grid_.targets.push_back(p.target);
    require_valid_unit_mu(p.unit_mu, p.uncapped_unit_mu, p.observer, p.target);
    max_unit_mu_ = std::max(max_unit_mu_, p.unit_mu);
    pages.add(p.unit_mu);
  }
  table_pays_ = pages.pays(pairs.size());
  if (!pairs.empty()) first_pair_.push_back(pairs.size());
  std::sort(grid_.targets.begin(), grid_.targets.end());
  grid_.targets.erase(std::unique(grid_.targets.begin(), grid_.targets.end()), grid_.targets.end());
  // A grid mostly of pairs is stored dense; a sparse list (local DP's diagonal) pair by pair. Pairs
  // that differ in what their values are keep a dense grid of certificates.
  const bool mixed = std::any_of(pairs.begin(), pairs.end(),
                                 [&](const UnitPair& p) { return p.certificate != info_.certificate; });
  double failure = 0.0;
  for (const UnitPair& p : pairs) failure += p.certificate_failure_probability;
  if (failure > 0.0)
    info_.certificate_failure_probability =
        std::min(1.0, info_.certificate_failure_probability.value_or(0.0) + failure);
  const std::size_t cells = grid_.targets.size() * grid_.observers.size();
  sparse_ = !mixed && cells > 2 * pairs.size() + grid_.targets.size() + grid_.observers.size();
  if (!sparse_) {
    const auto rows = static_cast<Eigen::Index>(grid_.targets.size());
    const auto cols = static_cast<Eigen::Index>(grid_.observers.size());
    grid_.uncapped = DenseMatrix::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
    grid_.reported = grid_.uncapped;
    if (mixed) grid_.certificates = UnitMuGrid::CertificateMatrix::Constant(rows, cols, info_.certificate);
  }
  const bool with_sensitivity = !pairs.empty() && pairs.front().sensitivity.has_value();
  Eigen::Index column = -1;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const UnitPair& p = pairs[k];
    if (k == 0 || p.observer != pairs[k - 1].observer) ++column;
    const auto row = static_cast<std::uint32_t>(
        std::lower_bound(grid_.targets.begin(), grid_.targets.end(), p.target) - grid_.targets.begin());
    if (sparse_) {
      sparse_rows_.push_back(row);
      sparse_uncapped_.push_back(p.uncapped_unit_mu);
      sparse_reported_.push_back(p.unit_mu);
    } else {
      grid_.uncapped(row, column) = p.uncapped_unit_mu;
      (*grid_.reported)(row, column) = p.unit_mu;
      if (mixed) (*grid_.certificates)(row, column) = p.certificate;
    }
    require(p.sensitivity.has_value() == with_sensitivity,
            "pair ({}, {}): either every pair or none carries sensitivity fields", p.observer, p.target);
    if (with_sensitivity) grid_.sensitivity.push_back(*p.sensitivity);
  }
}

GaussianPairwiseAccount::GaussianPairwiseAccount(UnitMuGrid grid, Info info)
    : grid_(std::move(grid)), info_(std::move(info)) {
  require_info();
  const auto rows = static_cast<Eigen::Index>(grid_.targets.size());
  const auto cols = static_cast<Eigen::Index>(grid_.observers.size());
  require(grid_.uncapped.rows() == rows && grid_.uncapped.cols() == cols,
          "unit μ grid: {} x {} values for {} targets and {} observers", grid_.uncapped.rows(),
          grid_.uncapped.cols(), rows, cols);
  require(grid_.reported ? grid_.reported->rows() == rows && grid_.reported->cols() == cols
                         : grid_.caps.size() == grid_.targets.size(),
          "unit μ grid: the reported values or caps do not match {} targets and {} observers", rows, cols);
  for (const double cap : grid_.caps) require(cap >= 0.0, "unit μ grid: a cap must be >= 0, got {}", cap);
  require(
      (!grid_.certificates || (grid_.certificates->rows() == rows && grid_.certificates->cols() == cols)) &&
          (!grid_.lower || (grid_.lower->rows() == rows && grid_.lower->cols() == cols)),
      "unit μ grid: the certificates or lower bounds do not match {} targets and {} observers", rows, cols);
  first_pair_.assign(static_cast<std::size_t>(cols) + 1, 0);
  detail::TablePages pages;
  for (Eigen::Index i = 0; i < cols; ++i) {
    std::size_t count = 0;
    for (Eigen::Index j = 0; j < rows; ++j) {
      const double uncapped = grid_.uncapped(j, i);
      if (!is_pair(uncapped)) continue;
      const double reported = dense_reported(j, i);
      require_valid_unit_mu(reported, uncapped, grid_.observers[static_cast<std::size_t>(i)],
                            grid_.targets[static_cast<std::size_t>(j)]);
      max_unit_mu_ = std::max(max_unit_mu_, reported);
      pages.add(reported);
      ++count;
    }
    first_pair_[static_cast<std::size_t>(i) + 1] = first_pair_[static_cast<std::size_t>(i)] + count;
  }
  table_pays_ = pages.pays(pair_count());
  require(grid_.sensitivity.empty() || grid_.sensitivity.size() == pair_count(),
          "unit μ grid: {} sensitivity fields for {} pairs", grid_.sensitivity.size(), pair_count());
}

void GaussianPairwiseAccount::require_info() const {
  require_positive(info_.sensitivity, "the sensitivity Δ");
  if (info_.alpha)
    require(*info_.alpha > 1.0 && std::isfinite(*info_.alpha), "α must be > 1, got {}", *info_.alpha);
}

double GaussianPairwiseAccount::dense_reported(Eigen::Index j, Eigen::Index i) const {
  if (grid_.reported) return (*grid_.reported)(j, i);
  return std::min(grid_.uncapped(j, i), grid_.caps[static_cast<std::size_t>(j)]);
}

template <class Visit>
void GaussianPairwiseAccount::for_each_pair(std::size_t begin, std::size_t end, const Visit& visit) const {
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t c = static_cast<std::ptrdiff_t>(begin); c < static_cast<std::ptrdiff_t>(end); ++c) {
    const auto column = static_cast<std::size_t>(c);
    std::size_t k = first_pair_[column];
    if (sparse_) {
      for (; k < first_pair_[column + 1]; ++k)
        visit(PairView{k, column, sparse_rows_[k], sparse_uncapped_[k], sparse_reported_[k]});
      continue;
    }
    const auto i = static_cast<Eigen::Index>(c);
    for (Eigen::Index j = 0; j < grid_.uncapped.rows(); ++j) {
      const double uncapped = grid_.uncapped(j, i);
      if (is_pair(uncapped))
        visit(PairView{k++, column, static_cast<std::size_t>(j), uncapped, dense_reported(j, i)});
    }
  }
}

template <class Chunk>
void GaussianPairwiseAccount::for_each_chunk(double sigma, double delta, const Chunk& chunk) const {
  detail::require_evaluation(sigma, delta);
  const double scale = info_.sensitivity / sigma;
  const std::size_t columns = grid_.observers.size();
  // Column ranges [begin, end): whole observers, at least kRowChunk pairs unless the columns run out.
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t begin = 0; begin < columns;) {
    std::size_t end = begin + 1;
    while (end < columns && first_pair_[end] - first_pair_[begin] < kRowChunk) ++end;
    ranges.emplace_back(begin, end);
    begin = end;
  }
  // A group of chunks is converted side by side, one chunk per thread (the conversion's own
  // parallel loops then run on that thread alone: its sorting is serial, and would leave the other
  // cores waiting), then handed to `chunk` in order.
  const auto width = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  const auto table = detail::conversion_table(table_pays_, delta);
  std::vector<std::vector<double>> mus(width);
  std::vector<std::vector<double>> epsilons(width);
  for (std::size_t group = 0; group < ranges.size(); group += width) {
    const std::size_t count = std::min(width, ranges.size() - group);
    util::ParallelErrors errors;
#pragma omp parallel for schedule(static, 1)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(count); ++i) {
      errors.run(i, [&] {
        const auto slot = static_cast<std::size_t>(i);
        const auto [begin, end] = ranges[group + slot];
        const std::size_t offset = first_pair_[begin];
        mus[slot].resize(first_pair_[end] - offset);
        epsilons[slot].resize(mus[slot].size());
        for_each_pair(begin, end,
                      [&](const PairView& p) { mus[slot][p.index - offset] = p.reported * scale; });
        detail::gdp_epsilons_rounded_up(mus[slot], delta, epsilons[slot], table.get());
      });
    }
    errors.rethrow();
    for (std::size_t slot = 0; slot < count; ++slot) {
      const auto [begin, end] = ranges[group + slot];
      chunk(begin, end, std::span<const double>(mus[slot]), std::span<const double>(epsilons[slot]));
    }
  }
}

void GaussianPairwiseAccount::stream_rows(double sigma, double delta, const RowSink& sink) const {
  const double alpha = info_.alpha.value_or(2.0);
  const double scale = info_.sensitivity / sigma;
  std::vector<PairRow> rows;
  for_each_chunk(
      sigma, delta,
      [&](std::size_t begin, std::size_t end, std::span<const double> mus, std::span<const double> epsilons) {
        const std::size_t offset = first_pair_[begin];
        rows.resize(mus.size());
        for_each_pair(begin, end, [&](const PairView& p) {
          const std::size_t k = p.index - offset;
          PairRow& row = rows[k];
          row = PairRow{};
          row.observer = grid_.observers[p.column];
          row.target = grid_.targets[p.row];
          row.alpha = alpha;
          const double uncapped = p.uncapped * scale;
          row.mu = mus[k];
          row.rdp_epsilon = dp::gaussian_rdp(alpha, mus[k]);
          row.uncapped_rdp_epsilon = dp::gaussian_rdp(alpha, uncapped);
          row.certificate = grid_.certificates ? (*grid_.certificates)(static_cast<Eigen::Index>(p.row),
                                                                       static_cast<Eigen::Index>(p.column))
                                               : info_.certificate;
          row.capped = uncapped > mus[k] || row.certificate == Certificate::cap_in_span ||
                       row.certificate == Certificate::cap_undetermined;
          if (grid_.lower)
            row.mu_lower =
                (*grid_.lower)(static_cast<Eigen::Index>(p.row), static_cast<Eigen::Index>(p.column)) * scale;
          row.epsilon = epsilons[k];
          if (!grid_.sensitivity.empty())
            row.sensitivity = std::make_shared<const SensitivityFields>(grid_.sensitivity[p.index]);
        });
        if (!rows.empty()) sink(rows);
      });
}

double GaussianPairwiseAccount::epsilon_statistic(Statistic statistic, double sigma, double delta) const {
  RangeAccumulator epsilon;
  for_each_chunk(sigma, delta,
                 [&](std::size_t, std::size_t, std::span<const double>, std::span<const double> epsilons) {
                   for (const double e : epsilons) epsilon.add(e);
                 });
  return detail::statistic_value(epsilon, statistic);
}

PairwiseAccount::MeanAndSlope GaussianPairwiseAccount::epsilon_mean_and_slope(double sigma,
                                                                              double delta) const {
  RangeAccumulator epsilon;
  util::CompensatedSum slope;
  std::vector<double> slopes;
  for_each_chunk(
      sigma, delta,
      [&](std::size_t, std::size_t, std::span<const double> mus, std::span<const double> epsilons) {
        slopes.resize(mus.size());
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(mus.size()); ++i) {
          const auto k = static_cast<std::size_t>(i);
          slopes[k] = mus[k] > 0.0 && std::isfinite(mus[k]) && epsilons[k] > 0.0
                          ? dp::gdp_epsilon_slope(mus[k], epsilons[k]) * mus[k]
                          : 0.0;
        }
        for (std::size_t k = 0; k < mus.size(); ++k) {
          epsilon.add(epsilons[k]);
          slope.add(slopes[k]);
        }
      });
  if (epsilon.count() == 0) return {};
  return {detail::statistic_value(epsilon, Statistic::mean),
          -slope.value() / (static_cast<double>(epsilon.count()) * sigma)};
}

std::vector<UnitPair> GaussianPairwiseAccount::unit_pairs() const {
  std::vector<UnitPair> pairs(pair_count());
  for_each_pair(0, grid_.observers.size(), [&](const PairView& v) {
    UnitPair& p = pairs[v.index];
    p.observer = grid_.observers[v.column];
    p.target = grid_.targets[v.row];
    p.unit_mu = v.reported;
    p.uncapped_unit_mu = v.uncapped;
    if (!grid_.sensitivity.empty()) p.sensitivity = grid_.sensitivity[v.index];
    // The failure probability stays with the account's info (it is not split over its pairs).
    p.certificate = grid_.certificates ? (*grid_.certificates)(static_cast<Eigen::Index>(v.row),
                                                               static_cast<Eigen::Index>(v.column))
                                       : info_.certificate;
  });
  return pairs;
}

std::vector<ObserverDetail> GaussianPairwiseAccount::observer_details(double sigma) const {
  std::vector<ObserverDetail> details;
  const std::size_t n = info_.communications.size();
  for (std::size_t v = 0; v < n; ++v) {
    details.push_back(
        {static_cast<graph::NodeId>(v), info_.communications[v],
         mean_privacy_loss(info_.communications[v], n, info_.alpha.value_or(2.0), info_.sensitivity, sigma)});
  }
  return details;
}

dp::RdpCurve GaussianPairwiseAccount::rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma,
                                                double /*delta*/) const {
  detail::require_evaluation(sigma, 0.5);
  const auto column = std::find(grid_.observers.begin(), grid_.observers.end(), observer);
  const auto row = std::lower_bound(grid_.targets.begin(), grid_.targets.end(), target);
  if (column != grid_.observers.end() && row != grid_.targets.end() && *row == target) {
    const auto i = static_cast<std::size_t>(column - grid_.observers.begin());
    const auto j = static_cast<std::size_t>(row - grid_.targets.begin());
    std::optional<double> reported;
    if (sparse_) {
      for (std::size_t k = first_pair_[i]; k < first_pair_[i + 1]; ++k) {
        if (sparse_rows_[k] == j) reported = sparse_reported_[k];
      }
    } else if (is_pair(grid_.uncapped(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)))) {
      reported = dense_reported(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i));
    }
    if (reported) return dp::gaussian_rdp_curve(*reported * info_.sensitivity / sigma);
  }
  throw std::invalid_argument(fmt::format("({}, {}) is not a pair of this account", observer, target));
}

std::vector<double> GaussianPairwiseAccount::unit_mus() const {
  std::vector<double> mus(pair_count());
  for_each_pair(0, grid_.observers.size(), [&](const PairView& p) { mus[p.index] = p.reported; });
  return mus;
}

}  // namespace netdp::accounting
