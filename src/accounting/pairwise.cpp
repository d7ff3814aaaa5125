// The pairwise-account interface: rows, the Gaussian account, ε statistics and σ calibration
// (pairwise.hpp).

#include "netdp/accounting/pairwise.hpp"

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

#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"
#include "pairwise_detail.hpp"

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

namespace detail {

void require_evaluation(double sigma, double delta) {
  require(std::isfinite(sigma) && sigma > 0.0, "σ must be a finite number > 0, got {}", sigma);
  require(std::isfinite(1.0 / sigma), "σ = {} is so small that 1/σ overflows", sigma);
  require(delta > 0.0 && delta < 1.0, "δ must be in (0, 1), got {}", delta);
  require(delta >= std::numeric_limits<double>::min(), "δ = {} is subnormal: it must be a normal number",
          delta);
}

double gdp_epsilon_or_zero(double mu, double delta) { return mu > 0.0 ? dp::gdp_epsilon(mu, delta) : 0.0; }

namespace {

/// The bits of μ > 0 finite rounded up to 40 significant bits (IEEE doubles order as their bits).
std::uint64_t rounded_up_bits(double mu) {
  constexpr std::uint64_t kLowBits = (std::uint64_t{1} << (52 - 40)) - 1;
  const auto bits = std::bit_cast<std::uint64_t>(mu);
  return (bits & kLowBits) == 0 ? bits : (bits | kLowBits) + 1;
}

/// The distinct keys of a list with few of them, by open addressing in a fixed table of
/// kCapacity slots (key 0 marks a free slot: rounded bits of a μ > 0 are never 0). A symmetric
/// graph's chunk (a hypercube has d + 1 values) then needs no sort of every pair.
class FewDistinct {
 public:
  static constexpr std::size_t kCapacity = 4096;  // a power of two
  static constexpr std::size_t kMaxDistinct = kCapacity / 4;
  static constexpr std::size_t kFull = ~std::size_t{0};
  /// The slot holding `key` (inserted if new), or kFull once more than kMaxDistinct keys were seen.
  std::size_t insert(std::uint64_t key) {
    std::size_t slot = hash(key);
    while (keys_[slot] != 0 && keys_[slot] != key) slot = (slot + 1) & (kCapacity - 1);
    if (keys_[slot] == 0) {
      if (++size_ > kMaxDistinct) return kFull;
      keys_[slot] = key;
    }
    return slot;
  }
  std::uint64_t key(std::size_t slot) const { return keys_[slot]; }
  /// The occupied slots, ordered by their keys.
  std::vector<std::size_t> slots_by_key() const {
    std::vector<std::size_t> slots;
    for (std::size_t slot = 0; slot < kCapacity; ++slot)
      if (keys_[slot] != 0) slots.push_back(slot);
    std::sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) { return keys_[a] < keys_[b]; });
    return slots;
  }

 private:
  static std::size_t hash(std::uint64_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 52);  // the top 12 bits
  }
  std::vector<std::uint64_t> keys_ = std::vector<std::uint64_t>(kCapacity, 0);
  std::size_t size_ = 0;
};

/// The roots ε(μ_d, δ) of distinct values in increasing order, in runs of kRootRun: each root after a
/// run's third starts from the previous three extrapolated by their quadratic (one δ evaluation,
/// mostly, instead of about ten). The runs do not depend on the thread count, so neither do the values.
std::vector<double> increasing_roots(std::span<const double> distinct_mus, double delta) {
  constexpr std::size_t kRootRun = 256;
  const std::size_t distinct = distinct_mus.size();
  const std::size_t runs = (distinct + kRootRun - 1) / kRootRun;
  std::vector<double> roots(distinct);
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t r = 0; r < static_cast<std::ptrdiff_t>(runs); ++r) {
    errors.run(static_cast<std::int64_t>(r), [&] {
      const std::size_t begin = static_cast<std::size_t>(r) * kRootRun;
      const std::size_t end = std::min(distinct, begin + kRootRun);
      dp::gdp_epsilons_increasing(distinct_mus.subspan(begin, end - begin), delta,
                                  std::span<double>(roots).subspan(begin, end - begin));
    });
  }
  errors.rethrow();
  return roots;
}

/// gdp_epsilons_rounded_up when at most FewDistinct::kMaxDistinct rounded values occur: false (and
/// `out` partly written) otherwise.
bool few_distinct_epsilons(std::span<const double> mus, double delta, std::span<double> out,
                           const dp::GdpEpsilonTable* table) {
  FewDistinct set;
  constexpr std::uint16_t kNoRoot = FewDistinct::kCapacity;  // μ <= 0 or not finite: converted directly
  static_assert(FewDistinct::kCapacity < std::numeric_limits<std::uint16_t>::max());
  std::vector<std::uint16_t> slot_of_pair(mus.size(), kNoRoot);
  for (std::size_t i = 0; i < mus.size(); ++i) {
    const double mu = mus[i];
    if (!(mu > 0.0 && std::isfinite(mu))) continue;
    const std::size_t slot = set.insert(rounded_up_bits(mu));
    if (slot == FewDistinct::kFull) return false;
    slot_of_pair[i] = static_cast<std::uint16_t>(slot);
  }
  const std::vector<std::size_t> slots = set.slots_by_key();
  std::vector<double> distinct(slots.size());
  for (std::size_t d = 0; d < slots.size(); ++d) distinct[d] = std::bit_cast<double>(set.key(slots[d]));
  std::vector<double> roots(distinct.size());
  if (table != nullptr) {
    table->epsilons(distinct, roots);
  } else {
    roots = increasing_roots(distinct, delta);
  }
  std::vector<double> root_in_slot(FewDistinct::kCapacity);
  for (std::size_t d = 0; d < slots.size(); ++d) root_in_slot[slots[d]] = roots[d];
  for (std::size_t i = 0; i < mus.size(); ++i) {
    out[i] = slot_of_pair[i] == kNoRoot ? gdp_epsilon_or_zero(mus[i], delta) : root_in_slot[slot_of_pair[i]];
  }
  return true;
}

}  // namespace

void TablePages::add(double unit_mu) {
  if (!(unit_mu > 0.0 && std::isfinite(unit_mu))) return;
  const std::size_t page = dp::GdpEpsilonTable::page_of(unit_mu);
  bits_[page / 64] |= std::uint64_t{1} << (page % 64);
}

bool TablePages::pays(std::size_t values) const {
  std::size_t pages = 0;
  for (const std::uint64_t word : bits_) pages += static_cast<std::size_t>(std::popcount(word));
  return pages * (dp::GdpEpsilonTable::kPageCells + 1) <= values;
}

std::shared_ptr<const dp::GdpEpsilonTable> conversion_table(bool pays, double delta) {
  return pays ? dp::shared_gdp_epsilon_table(delta) : nullptr;
}

void gdp_epsilons_rounded_up(std::span<const double> mus, double delta, std::span<double> out,
                             const dp::GdpEpsilonTable* table) {
  require(out.size() == mus.size(), "gdp_epsilons_rounded_up: {} outputs for {} values", out.size(),
          mus.size());
  require(table == nullptr || table->delta() == delta, "gdp_epsilons_rounded_up: a table for δ = {}, not {}",
          table == nullptr ? delta : table->delta(), delta);
  if (few_distinct_epsilons(mus, delta, out, table)) return;
  if (table != nullptr) {
    util::ParallelErrors errors;
#pragma omp parallel for schedule(static, 4096)
    for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(mus.size()); ++k) {
      errors.run(k, [&] {
        const double mu = mus[static_cast<std::size_t>(k)];
        out[static_cast<std::size_t>(k)] = mu > 0.0 && std::isfinite(mu)
                                               ? table->epsilon(std::bit_cast<double>(rounded_up_bits(mu)))
                                               : gdp_epsilon_or_zero(mu, delta);
      });
    }
    errors.rethrow();
    return;
  }
  // (rounded bits, position) of every finite μ > 0, sorted: equal values side by side, increasing,
  // so each distinct value is solved once, from its neighbours' roots.
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  keyed.reserve(mus.size());
  for (std::size_t i = 0; i < mus.size(); ++i) {
    const double mu = mus[i];
    if (mu > 0.0 && std::isfinite(mu)) {
      keyed.emplace_back(rounded_up_bits(mu), i);
    } else {
      out[i] = gdp_epsilon_or_zero(mu, delta);
    }
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> first;  // where each distinct value starts in `keyed`
  std::vector<double> distinct;
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    if (k == 0 || keyed[k].first != keyed[k - 1].first) {
      first.push_back(k);
      distinct.push_back(std::bit_cast<double>(keyed[k].first));
    }
  }
  first.push_back(keyed.size());
  const std::vector<double> roots = increasing_roots(distinct, delta);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t d = 0; d < static_cast<std::ptrdiff_t>(distinct.size()); ++d) {
    const auto slot = static_cast<std::size_t>(d);
    for (std::size_t k = first[slot]; k < first[slot + 1]; ++k) out[keyed[k].second] = roots[slot];
  }
}

}  // namespace detail

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

// ---------------------------------------------------------------- calibration

namespace {

/// The mean over pairs of ε(u_i·Δ/σ, δ) bracketed cheaply: the unit μ binned on the geometric grid
/// g_b = r^b, r = 1 + 2⁻⁸; `upper(σ)` converts each bin's top g_b >= u_i, `lower(σ)` its bottom
/// g_{b−1} <= u_i, so lower <= the mean <= upper (ε increases with μ), at one conversion per grid
/// point next to an occupied bin instead of one per pair. The bins between the smallest and largest
/// u are counted in place (at most about 3.7·10⁵ over all doubles), without sorting the pairs.
class BinnedMean {
 public:
  BinnedMean(std::span<const double> unit_mus, double sensitivity)
      : sensitivity_(sensitivity), pairs_(static_cast<double>(unit_mus.size())) {
    double smallest = std::numeric_limits<double>::infinity();
    double largest = 0.0;
    for (const double u : unit_mus) {
      if (u > 0.0) {
        smallest = std::min(smallest, u);
        largest = std::max(largest, u);
      }
    }
    if (largest == 0.0) return;
    // Grid points from two below the smallest bin's estimate to two above the largest's.
    first_ = estimate(smallest) - 2;
    const long last = estimate(largest) + 2;
    for (long b = first_; b <= last; ++b) grid_.push_back(grid(b));
    std::vector<double> counts(grid_.size(), 0.0);
    std::vector<double> positions(grid_.size(), 0.0);
    for (const double u : unit_mus) {
      if (!(u > 0.0)) continue;
      const double scaled = std::log(u) / log_ratio();
      auto b = static_cast<long>(std::ceil(scaled));
      while (grid_at(b) < u) ++b;
      while (grid_at(b - 1) > u) --b;
      const auto slot =
          static_cast<std::size_t>(std::clamp(b - first_, 1L, static_cast<long>(grid_.size()) - 1));
      counts[slot] += 1.0;
      positions[slot] += std::clamp(scaled - static_cast<double>(b - 1), 0.0, 1.0);
    }
    // The occupied bins, and the grid points at their ends (increasing, each once).
    for (std::size_t slot = 1; slot < grid_.size(); ++slot) {
      if (counts[slot] == 0.0) continue;
      if (points_.empty() || points_.back() != slot - 1) points_.push_back(slot - 1);
      points_.push_back(slot);
      bins_.push_back({points_.size() - 2, counts[slot], positions[slot]});
    }
  }
  double upper(double sigma, double delta) const {
    const std::vector<double> e = point_epsilons(sigma, delta);
    return mean([&](const Bin& bin) { return bin.pairs * e[bin.bottom + 1]; });
  }
  double lower(double sigma, double delta) const {
    const std::vector<double> e = point_epsilons(sigma, delta);
    return mean([&](const Bin& bin) { return bin.pairs * e[bin.bottom]; });
  }
  /// Each pair's ε interpolated linearly in log μ between its bin's ends: not a bound, but within
  /// the bracket and second order in the bin width, where the bounds are first order.
  double interpolated(double sigma, double delta) const {
    const std::vector<double> e = point_epsilons(sigma, delta);
    return mean([&](const Bin& bin) {
      return bin.pairs * e[bin.bottom] + bin.positions * (e[bin.bottom + 1] - e[bin.bottom]);
    });
  }

 private:
  struct Bin {
    std::size_t bottom = 0;  ///< points_[bottom] is the bin's bottom g_{b−1}, points_[bottom + 1] its top
    double pairs = 0.0;
    double positions = 0.0;  ///< Σ (log u − log g_{b−1}) / log r over its pairs, each in [0, 1]
  };
  static double log_ratio() { return std::log1p(kStep); }
  static double grid(long b) { return std::exp(static_cast<double>(b) * log_ratio()); }
  static long estimate(double u) { return static_cast<long>(std::ceil(std::log(u) / log_ratio())); }
  /// grid(b), from the table where it has it.
  double grid_at(long b) const {
    const long slot = b - first_;
    return slot >= 0 && slot < static_cast<long>(grid_.size()) ? grid_[static_cast<std::size_t>(slot)]
                                                               : grid(b);
  }
  /// ε at every grid point next to an occupied bin (increasing μ: each root starts from its
  /// neighbours').
  std::vector<double> point_epsilons(double sigma, double delta) const {
    std::vector<double> mus(points_.size());
    bool finite = true;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      mus[i] = grid_[points_[i]] * sensitivity_ / sigma;
      finite = finite && std::isfinite(mus[i]) && mus[i] > 0.0;
    }
    if (finite) return detail::increasing_roots(mus, delta);
    std::vector<double> out(mus.size());
    for (std::size_t i = 0; i < mus.size(); ++i) out[i] = detail::gdp_epsilon_or_zero(mus[i], delta);
    return out;
  }
  /// Σ over bins of part(bin) / pairs, in bin order.
  template <class Part>
  double mean(const Part& part) const {
    double sum = 0.0;
    for (const Bin& bin : bins_) sum += part(bin);
    return sum / pairs_;
  }
  static constexpr double kStep = 0x1.0p-8;
  double sensitivity_;
  double pairs_;
  long first_ = 0;                   ///< the grid index of grid_[0]
  std::vector<double> grid_;         ///< g_b for b = first_, first_ + 1, ...
  std::vector<std::size_t> points_;  ///< slots of grid_ at the ends of occupied bins, increasing
  std::vector<Bin> bins_;
};

/// The smallest σ (to relative `tolerance`) at which `met(σ)` holds, for a statistic of ε that
/// decreases in σ: a bracket [lo, hi] with met(hi) and not met(lo) from `start` by halving / doubling
/// within the options' [sigma_min, sigma_max] (an error naming `what` and the bound outside it),
/// then bisection on log σ (the geometric midpoint halves the ratio hi/lo); the met end is returned.
template <class Met>
double smallest_sigma_meeting(const Met& met, double start, double tolerance,
                              const CalibrationOptions& options, double target_epsilon,
                              std::string_view what) {
  double hi = start;
  double lo = hi;
  if (met(hi)) {
    do {
      lo /= 2.0;
      require(lo >= options.sigma_min,
              "calibration to ε = {}: the {} ε stays at or below the target for every σ >= {}",
              target_epsilon, what, options.sigma_min);
      if (met(lo)) hi = lo;
    } while (hi == lo);
  } else {
    do {
      lo = hi;
      hi *= 2.0;
      require(hi <= options.sigma_max,
              "calibration to ε = {} is unreachable: the {} ε stays above it for every σ <= {}",
              target_epsilon, what, options.sigma_max);
    } while (!met(hi));
  }
  while (hi - lo > tolerance * hi) {
    const double mid = std::sqrt(lo * hi);
    (met(mid) ? hi : lo) = mid;
  }
  return hi;
}

/// One Newton step on the exact mean M(σ) from the root of the interpolated binned mean in
/// [lower_sigma, upper_sigma] (found on the bins alone): the error after it is about the square of
/// that root's (M is smooth, near c/σ), mostly within the calibration's tolerance.
struct NewtonStep {
  double sigma = 0.0;  ///< after the step
  double slope = 0.0;  ///< M' where the step was taken
};
NewtonStep newton_mean_step(const BinnedMean& binned, const PairwiseAccount& account, double target_epsilon,
                            double delta, double lower_sigma, double upper_sigma) {
  double lo = std::min(lower_sigma, upper_sigma);
  double hi = upper_sigma;
  for (int step = 0; step < 14 && hi > lo; ++step) {  // 0.4 % down to ~10⁻⁶
    const double mid = std::sqrt(lo * hi);
    (binned.interpolated(mid, delta) <= target_epsilon ? hi : lo) = mid;
  }
  const double sigma = std::sqrt(lo * hi);
  const PairwiseAccount::MeanAndSlope m = account.epsilon_mean_and_slope(sigma, delta);
  const double next = m.slope < 0.0 ? sigma - (m.mean - target_epsilon) / m.slope : sigma;
  return {std::isfinite(next) && next > 0.0 ? next : sigma, m.slope};
}

/// calibrate_sigma's σ and achieved ε (into `result`) for the mean of a Gaussian account. The binned
/// bounds locate σ* within a factor 1 + 2⁻⁸ cheaply (lower <= mean <= upper); a Newton step on the
/// exact mean then lands within the tolerance, and two exact evaluations (`stat`) just inside it on
/// either side prove the bracket (a probe on the wrong side moves the guess by the same slope).
/// Should they not, secant steps close the bracket, keeping the statistic at hi <= the target.
template <class Stat>
void calibrate_gaussian_mean(const PairwiseAccount& account, double target_epsilon, double delta,
                             const CalibrationOptions& options, const Stat& stat, Calibration& result) {
  const std::string name(statistic_name(Statistic::mean));
  const BinnedMean binned(account.unit_mus(), account.sensitivity());
  const double start = account.sensitivity() * account.max_unit_mu() / dp::gdp_mu_for(target_epsilon, delta);
  require(start > 0.0, "calibration to ε = {}: no pair leaks (every μ is 0), so every σ meets it",
          target_epsilon);
  const double fine = 1e-4;  // the bracket only starts the exact search
  double upper_sigma =
      smallest_sigma_meeting([&](double s) { return binned.upper(s, delta) <= target_epsilon; }, start, fine,
                             options, target_epsilon, name);
  const double lower_sigma =
      smallest_sigma_meeting([&](double s) { return binned.lower(s, delta) <= target_epsilon; }, upper_sigma,
                             fine, options, target_epsilon, name);
  const NewtonStep newton =
      newton_mean_step(binned, account, target_epsilon, delta, lower_sigma, upper_sigma);
  ++result.evaluations;
  if (options.progress) options.progress(result.evaluations);
  const double half_width = 0.45 * options.relative_tolerance;
  double guess = newton.sigma;
  for (int attempt = 0; attempt < 3 && newton.slope < 0.0; ++attempt) {
    const double probe_hi = guess * (1.0 + half_width);
    const double stat_probe_hi = stat(probe_hi);
    if (stat_probe_hi > target_epsilon) {
      guess = probe_hi - (stat_probe_hi - target_epsilon) / newton.slope;
      continue;
    }
    const double probe_lo = guess * (1.0 - half_width);
    const double stat_probe_lo = stat(probe_lo);
    if (stat_probe_lo > target_epsilon) {
      result.sigma = probe_hi;
      result.achieved_epsilon = stat_probe_hi;
      return;
    }
    guess = probe_lo - (stat_probe_lo - target_epsilon) / newton.slope;
  }
  double stat_hi = stat(upper_sigma);
  for (int step = 0; stat_hi > target_epsilon; ++step) {  // rounding may leave the mean a hair above
    require(step < 48, "calibration to ε = {}: σ = {} does not meet it", target_epsilon, upper_sigma);
    upper_sigma *= 1.0 + std::ldexp(1.0, step - 40);
    stat_hi = stat(upper_sigma);
  }
  double hi = upper_sigma;
  double f_hi = stat_hi - target_epsilon;
  double lo = std::min(lower_sigma, hi);
  double f_lo = lo < hi ? stat(lo) - target_epsilon : f_hi;
  // Secant steps from the two latest points (superlinear: the mean is smooth in σ), kept inside
  // the bracket f(lo) > 0 >= f(hi), with a bisection when a step leaves it or the last step did
  // not halve |f|; once a step is below the tolerance, a probe a sixteenth of the tolerance away on
  // the other side of the root closes the bracket (the mean's own rounding is ~1e-13 relative).
  double x_previous = lo;
  double f_previous = f_lo;
  double x = hi;
  double f_x = f_hi;
  bool stalled = false;
  while (hi - lo > options.relative_tolerance * hi && f_lo > 0.0) {
    const double probe = options.relative_tolerance / 16.0 * hi;
    double next = x - f_x * (x - x_previous) / (f_x - f_previous);
    if (std::abs(next - x) < probe) next = f_x <= 0.0 ? x - probe : x + probe;
    if (!(next > lo && next < hi) || stalled) next = std::sqrt(lo * hi);
    const double stat_next = stat(next);
    const double f_next = stat_next - target_epsilon;
    stalled = std::abs(f_next) > 0.5 * std::abs(f_x);
    if (stat_next <= target_epsilon) {
      hi = next;
      f_hi = f_next;
      stat_hi = stat_next;
    } else {
      lo = next;
      f_lo = f_next;
    }
    x_previous = std::exchange(x, next);
    f_previous = std::exchange(f_x, f_next);
  }
  result.sigma = hi;
  result.achieved_epsilon = stat_hi;
}

}  // namespace

Calibration calibrate_sigma(const PairwiseAccount& account, Statistic statistic, double target_epsilon,
                            double delta, const CalibrationOptions& options) {
  require(std::isfinite(target_epsilon) && target_epsilon > 0.0,
          "the target ε must be a finite number > 0, got {}", target_epsilon);
  require(delta > 0.0 && delta < 1.0, "δ must be in (0, 1), got {}", delta);
  require(
      options.sigma_min > 0.0 && options.sigma_min < options.sigma_max && std::isfinite(options.sigma_max),
      "calibration bounds must satisfy 0 < sigma_min < sigma_max < inf, got [{}, {}]", options.sigma_min,
      options.sigma_max);
  require(std::isfinite(options.sigma_start) && options.sigma_start > 0.0,
          "the calibration's starting σ must be a finite number > 0, got {}", options.sigma_start);
  require(options.relative_tolerance > 0.0 && options.relative_tolerance < 1.0,
          "the calibration tolerance must be in (0, 1), got {}", options.relative_tolerance);
  Calibration result;
  const auto stat = [&](double sigma) {
    const double value = epsilon_statistic(account, statistic, sigma, delta);
    ++result.evaluations;
    if (options.progress) options.progress(result.evaluations);
    return value;
  };
  const auto met = [&](double sigma) { return stat(sigma) <= target_epsilon; };
  const std::string name(statistic_name(statistic));

  double hi = 0.0;
  if (account.gaussian() && statistic == Statistic::mean) {
    calibrate_gaussian_mean(account, target_epsilon, delta, options, stat, result);
    return result;
  }
  if (account.gaussian()) {
    const double max_mu = account.max_unit_mu();
    require(max_mu > 0.0, "calibration to ε = {}: no pair leaks (every μ is 0), so every σ meets it",
            target_epsilon);
    // μ = unit μ · Δ/σ, and ε(δ) grows with μ: the worst pair meets the target exactly at
    // σ = Δ · max unit μ / μ(target); gdp_mu_for returns the conservative (lower) μ.
    // Each ε is up to 1e-10 relative above the root at μ (gdp_epsilons_rounded_up). ε is convex and 0
    // at μ = 0, so ε/μ increases and lowering μ by a factor 1 − x lowers ε by at least x·ε: the factor
    // 1 + 2⁻³² (2.3e-10) on σ leaves room for that, so the first σ meets the target unless
    // gdp_mu_for's root is off.
    hi = account.sensitivity() * max_mu / dp::gdp_mu_for(target_epsilon, delta) * (1.0 + 0x1.0p-32);
    if (statistic != Statistic::mean) {
      // Floating point may still leave ε a hair above the target: step σ up by doubling relative
      // amounts until it is met.
      for (int step = 0; !met(hi); ++step) {
        require(step < 48, "calibration to ε = {}: the closed form σ = {} does not meet it", target_epsilon,
                hi);
        hi = std::nextafter(hi, std::numeric_limits<double>::infinity()) * (1.0 + std::ldexp(1.0, step - 52));
      }
      result.sigma = hi;
      result.achieved_epsilon = stat(hi);
      result.closed_form = true;
      return result;
    }
  } else {
    hi = options.sigma_start;
  }
  hi = smallest_sigma_meeting(met, hi, options.relative_tolerance, options, target_epsilon, name);
  result.sigma = hi;
  result.achieved_epsilon = stat(hi);
  require(result.achieved_epsilon <= target_epsilon, "calibration: ε({}) = {} exceeds the target {}", hi,
          result.achieved_epsilon, target_epsilon);
  return result;
}

}  // namespace netdp::accounting
