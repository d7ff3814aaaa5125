// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Exact arithmetic for the joint view: see modular_view.hpp and docs/explanation/certificates.md.

#include "accounting/exact/modular_view.hpp"

#include <flint/flint.h>
#include <flint/fmpq.h>
#include <flint/fmpz.h>
#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <fmt/format.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "accounting/exact/rational_rows.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting::detail {

using graph::NodeId;
using Index = Eigen::Index;

std::uint64_t random_prime(unsigned bits, std::mt19937_64& rng) {
  require(bits >= 20 && bits <= 63, "random_prime: {} bits is outside 20..63", bits);
  for (;;) {
    const std::uint64_t x = (rng() >> (64 - bits)) | (std::uint64_t{1} << (bits - 1)) | 1;
    if (n_is_prime(x) != 0) return x;  // deterministic for 64-bit integers (FLINT: BPSW, verified)
  }
}

double primes_in_range(unsigned bits) {
  const double x = std::ldexp(1.0, static_cast<int>(bits) - 1);
  return 2.0 * x / std::log(2.0 * x) - 1.25506 * x / std::log(x);
}

namespace {

/// The simplest convergent of x's continued fraction with a denominator below 2^20 whose correctly
/// rounded quotient is x itself, if any. The bound keeps the reading to intended fractions: every
/// double is within 1/b² of a convergent with b near 2^27, but the fractions with b <= 2^20 capture
/// only about 2·10⁻⁵ of the doubles in [0, 1] (0.3·2^40 fractions, each within half an ulp of one
/// double).
std::optional<mpq_class> small_fraction(double x) {
  if (x == 0.0 || !std::isfinite(x) || std::fabs(x) >= 0x1p22) return std::nullopt;
  const double ax = std::fabs(x);  // below 2^22 and k below 2^20, so h < 2^53 and h / k is one rounding
  mpq_class rest(ax);              // exact
  mpz_class h_prev = 1, k_prev = 0, h_prev2 = 0, k_prev2 = 1;
  const mpz_class limit = mpz_class(1) << 20;
  for (int step = 0; step < 80; ++step) {
    mpz_class a;
    mpz_fdiv_q(a.get_mpz_t(), rest.get_num_mpz_t(), rest.get_den_mpz_t());
    const mpz_class h = a * h_prev + h_prev2;
    const mpz_class k = a * k_prev + k_prev2;
    if (k >= limit) return std::nullopt;
    if (h > 0 && h.get_d() / k.get_d() == ax) {
      mpq_class out(x < 0.0 ? mpz_class(-h) : h, k);
      out.canonicalize();
      return out;
    }
    h_prev2 = h_prev;
    k_prev2 = k_prev;
    h_prev = h;
    k_prev = k;
    rest -= a;
    if (rest == 0) return std::nullopt;
    rest = 1 / rest;
  }
  return std::nullopt;
}

}  // namespace

RationalSchedule::RationalSchedule(const gossip::Schedule& schedule)
    : impl_(std::make_unique<Impl>()), nodes_(schedule.num_nodes()) {
  const std::size_t count = schedule.is_fixed() ? 1 : schedule.rounds();
  mpz_class lcm = 1;
  double growth = 0.0;
  for (std::size_t t = 0; t < count; ++t) {
    const SparseMatrix& w = schedule.at(t);
    Impl::Rows rows;
    rows.start.push_back(0);
    std::vector<double> column_sums(nodes_, 0.0);
    for (Index i = 0; i < w.outerSize(); ++i) {
      std::vector<std::pair<std::size_t, mpq_class>> entries;
      std::optional<double> diagonal;
      mpq_class off_sum = 0;
      double off_abs = 0.0;
      for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
        const double x = it.value();
        if (x == 0.0) continue;
        if (it.col() == i) {
          diagonal = x;
          continue;
        }
        std::optional<mpq_class> q = small_fraction(x);
        if (!q) {
          q = mpq_class(x);
          ++binary_entries_;
        }
        off_sum += *q;
        off_abs += std::fabs(x);
        entries.emplace_back(static_cast<std::size_t>(it.col()), *q);
      }
      if (diagonal) {
        const mpq_class rest = 1 - off_sum;
        const double tolerance = 4.0 * static_cast<double>(entries.size() + 2) *
                                 std::numeric_limits<double>::epsilon() * std::max(1.0, off_abs);
        std::optional<mpq_class> q;
        if (std::fabs(rest.get_d() - *diagonal) <= tolerance) {
          q = rest;
        } else {
          q = small_fraction(*diagonal);
          if (!q) {
            q = mpq_class(*diagonal);
            ++binary_entries_;
          }
        }
        if (*q != 0) entries.emplace_back(static_cast<std::size_t>(i), *q);
      }
      std::sort(entries.begin(), entries.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      double row_sum = 0.0;
      for (auto& [j, q] : entries) {
        mpz_lcm(lcm.get_mpz_t(), lcm.get_mpz_t(), q.get_den_mpz_t());
        const double a = std::fabs(q.get_d());
        row_sum += a;
        column_sums[j] += a;
        rows.column.push_back(j);
        rows.value.push_back(std::move(q));
      }
      growth = std::max(growth, row_sum);
      rows.start.push_back(rows.column.size());
    }
    for (const double s : column_sums) growth = std::max(growth, s);
    impl_->matrices.push_back(std::move(rows));
  }
  if (count == 1) {  // W = Wᵀ as rationals: entry (i, j) against entry (j, i), rows sorted by column
    const Impl::Rows& w = impl_->matrices.front();
    symmetric_ = true;
    for (std::size_t i = 0; i < nodes_ && symmetric_; ++i) {
      for (std::size_t e = w.start[i]; e < w.start[i + 1] && symmetric_; ++e) {
        const std::size_t j = w.column[e];
        const auto first = w.column.begin() + static_cast<std::ptrdiff_t>(w.start[j]);
        const auto last = w.column.begin() + static_cast<std::ptrdiff_t>(w.start[j + 1]);
        const auto it = std::lower_bound(first, last, i);
        symmetric_ =
            it != last && *it == i && w.value[static_cast<std::size_t>(it - w.column.begin())] == w.value[e];
      }
    }
  }
  // Sums of doubles rounded up by a relative 1e-12 before the log: a bound, not an estimate.
  bits_per_round_ = static_cast<double>(mpz_sizeinbase(lcm.get_mpz_t(), 2)) +
                    std::max(0.0, std::log2(growth * (1.0 + 1e-12)));
}

RationalSchedule::~RationalSchedule() = default;
RationalSchedule::RationalSchedule(RationalSchedule&&) noexcept = default;
RationalSchedule& RationalSchedule::operator=(RationalSchedule&&) noexcept = default;

namespace {

std::uint64_t residue_of(const mpz_class& z, std::uint64_t p) {
  // mpz_fdiv_ui takes an unsigned long (64 bits here) and returns the non-negative residue.
  static_assert(sizeof(unsigned long) == 8);
  return mpz_fdiv_ui(z.get_mpz_t(), p);
}

}  // namespace

struct ModularSchedule::Impl {
  nmod_t mod{};
  struct Rows {
    std::vector<std::size_t> start;
    std::vector<std::size_t> column;
    std::vector<std::uint64_t> value;
  };
  std::vector<Rows> matrices;
  bool fixed = true;
  /// keep_rows: row (w·rounds + t) holds e_wᵀ W^t mod p; hops[w·n + u] the hop distance (0xFFFF: none).
  std::size_t table_rounds = 0;
  std::vector<std::uint64_t> table;
  std::vector<std::uint16_t> hops;
};

ModularSchedule::ModularSchedule(const RationalSchedule& rational, const gossip::Schedule& schedule,
                                 std::uint64_t prime)
    : impl_(std::make_unique<Impl>()),
      prime_(prime),
      nodes_(rational.num_nodes()),
      bits_per_round_(rational.bits_per_round()) {
  nmod_init(&impl_->mod, prime);
  impl_->fixed = schedule.is_fixed();
  for (const RationalSchedule::Impl::Rows& r : rational.impl().matrices) {
    Impl::Rows rows;
    rows.start = r.start;
    rows.column = r.column;
    rows.value.reserve(r.value.size());
    for (const mpq_class& q : r.value) {
      const std::uint64_t den = residue_of(q.get_den(), prime);
      if (den == 0) throw std::runtime_error(fmt::format("the prime {} divides a denominator of W", prime));
      rows.value.push_back(nmod_mul(residue_of(q.get_num(), prime), n_invmod(den, prime), impl_->mod));
    }
    impl_->matrices.push_back(std::move(rows));
  }
}

double ModularSchedule::row_table_bytes(std::size_t nodes, std::size_t rounds, bool fixed) {
  const double n = static_cast<double>(nodes);
  const double bytes = 8.0 * n * static_cast<double>(rounds) * n + 2.0 * n * n;
  return fixed && nodes < 0xFFFF && bytes <= kMaxRowTableBytes ? bytes : 0.0;
}

ModularSchedule::~ModularSchedule() = default;
ModularSchedule::ModularSchedule(ModularSchedule&&) noexcept = default;

struct ModularView::Impl {
  nmod_mat_t rref;
  nmod_mat_t rows;                 // A′ mod p as built (the echelon form overwrites its copy)
  std::vector<std::size_t> pivot;  // pivot column of each of the first rank rows
  std::size_t rank = 0;
  Impl(std::size_t m, std::size_t columns, std::uint64_t p) {
    nmod_mat_init(rref, static_cast<slong>(m), static_cast<slong>(columns), p);
    nmod_mat_init(rows, static_cast<slong>(m), static_cast<slong>(columns), p);
  }
  ~Impl() {
    nmod_mat_clear(rows);
    nmod_mat_clear(rref);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

namespace {

/// x ← x W (a row vector times W mod p), with the structural support carried along.
void modular_step(const ModularSchedule::Impl::Rows& w, const nmod_t mod, std::vector<std::uint64_t>& x,
                  std::vector<std::uint8_t>& support, std::vector<std::uint64_t>& y,
                  std::vector<std::uint8_t>& next) {
  std::fill(y.begin(), y.end(), 0);
  std::fill(next.begin(), next.end(), 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (support[i] == 0) continue;
    const std::uint64_t xi = x[i];
    for (std::size_t k = w.start[i]; k < w.start[i + 1]; ++k) {
      const std::size_t j = w.column[k];
      next[j] = 1;
      if (xi != 0) y[j] = nmod_add(y[j], nmod_mul(xi, w.value[k], mod), mod);
    }
  }
  x.swap(y);
  support.swap(next);
}

}  // namespace

void ModularSchedule::keep_rows(std::size_t rounds) {
  const std::size_t n = nodes_;
  if (row_table_bytes(n, rounds, impl_->fixed) == 0.0 || rounds == 0) return;
  Impl& s = *impl_;
  s.table.assign(n * rounds * n, 0);
  s.hops.assign(n * n, 0xFFFF);
  const Impl::Rows& w = s.matrices.front();
#pragma omp parallel
  {
    std::vector<std::uint64_t> x(n), y(n);
    std::vector<std::uint8_t> support(n), next(n);
#pragma omp for schedule(dynamic, 8)
    for (std::size_t sender = 0; sender < n; ++sender) {
      std::fill(x.begin(), x.end(), 0);
      std::fill(support.begin(), support.end(), 0);
      x[sender] = 1;
      support[sender] = 1;
      std::uint16_t* hop = s.hops.data() + sender * n;
      for (std::size_t t = 0; t < rounds; ++t) {
        std::copy(x.begin(), x.end(),
                  s.table.begin() + static_cast<std::ptrdiff_t>((sender * rounds + t) * n));
        for (std::size_t u = 0; u < n; ++u)
          if (support[u] != 0 && hop[u] == 0xFFFF) hop[u] = static_cast<std::uint16_t>(t);
        if (t + 1 < rounds) modular_step(w, s.mod, x, support, y, next);
      }
    }
  }
  s.table_rounds = rounds;
}

ModularView::ModularView(const ModularSchedule& schedule, std::span<const TimedSender> messages,
                         std::span<const NodeId> observers, bool exact)
    : exact_(exact), in_span_(schedule.num_nodes(), 0), reached_(schedule.num_nodes(), 0) {
  const std::size_t n = schedule.num_nodes();
  const std::size_t m = messages.size();
  const ModularSchedule::Impl& s = schedule.impl();
  impl_ = std::make_unique<Impl>(exact ? m : 0, n, schedule.prime());
  std::vector<std::uint64_t> x(n), y(n);
  std::vector<std::uint8_t> support(n), next(n);
  const auto store = [&](std::size_t row) {
    for (std::size_t j = 0; j < n; ++j) reached_[j] |= support[j];
    if (exact_)
      for (std::size_t j = 0; j < n; ++j)
        nmod_mat_entry(impl_->rref, static_cast<slong>(row), static_cast<slong>(j)) = x[j];
  };
  const auto start = [&](NodeId w) {
    std::fill(x.begin(), x.end(), 0);
    std::fill(support.begin(), support.end(), 0);
    x[w] = 1;
    support[w] = 1;
  };
  const bool tabled =
      s.table_rounds > 0 && std::all_of(messages.begin(), messages.end(),
                                        [&](const TimedSender& x) { return x.time < s.table_rounds; });
  if (tabled) {
    // Rows copied from the table; a node is reached when it lies within t hops of a sender heard at t.
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t w = messages[k].sender;
      const std::size_t t = messages[k].time;
      const std::uint16_t* hop = s.hops.data() + w * n;
      for (std::size_t u = 0; u < n; ++u)
        if (hop[u] <= t) reached_[u] = 1;
      if (!exact_) continue;
      const std::uint64_t* row = s.table.data() + (w * s.table_rounds + t) * n;
      for (std::size_t j = 0; j < n; ++j)
        nmod_mat_entry(impl_->rref, static_cast<slong>(k), static_cast<slong>(j)) = row[j];
    }
  } else {
    std::vector<std::size_t> all(m);
    for (std::size_t k = 0; k < m; ++k) all[k] = k;
    propagate_messages(
        messages, std::move(all), s.fixed, start,
        [&](std::size_t t) { modular_step(s.matrices[t], s.mod, x, support, y, next); }, store);
  }
  // The observers know their own releases: their columns are not part of A′.
  for (const NodeId c : observers) {
    reached_[c] = 0;
    if (!exact_) continue;
    for (std::size_t row = 0; row < m; ++row)
      nmod_mat_entry(impl_->rref, static_cast<slong>(row), static_cast<slong>(c)) = 0;
  }
  if (!exact_) return;
  nmod_mat_set(impl_->rows, impl_->rref);
  rank_ = m == 0 ? 0 : static_cast<std::size_t>(nmod_mat_rref(impl_->rref));
  impl_->rank = rank_;
  for (std::size_t k = 0; k < rank_; ++k) {
    std::size_t first = n;
    std::size_t nonzero = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (nmod_mat_entry(impl_->rref, static_cast<slong>(k), static_cast<slong>(j)) == 0) continue;
      if (first == n) first = j;
      ++nonzero;
    }
    impl_->pivot.push_back(first);
    // A row of the reduced echelon form with a single entry is e_pivot itself.
    if (nonzero == 1) in_span_[first] = 1;
  }
  // Hadamard's bound: an integerised row of time t has norm at most 2^(t·bits_per_round), and a
  // minor holds at most `rank` rows of A′ (and possibly one e_u, of norm 1).
  std::vector<std::size_t> times;
  times.reserve(m);
  for (const TimedSender& message : messages) times.push_back(message.time);
  std::sort(times.begin(), times.end(), std::greater<>());
  double bits = 0.0;
  for (std::size_t k = 0; k < std::min(rank_ + 1, m); ++k) bits += static_cast<double>(times[k]);
  height_bits_ = bits * schedule.bits_per_round();
}

ModularView::~ModularView() = default;
ModularView::ModularView(ModularView&&) noexcept = default;

std::optional<std::vector<std::uint64_t>> ModularView::leverages(std::span<const NodeId> targets) const {
  const nmod_mat_struct* r = impl_->rref;
  const slong n = r->c;
  const auto rank = static_cast<slong>(rank_);
  const nmod_t mod = r->mod;
  std::vector<std::uint64_t> out(targets.size(), 0);
  if (rank == 0) return out;
  std::vector<slong> row_of(static_cast<std::size_t>(n), -1);  // pivot column → its row
  for (slong k = 0; k < rank; ++k) row_of[impl_->pivot[static_cast<std::size_t>(k)]] = k;
  std::vector<slong> free_columns;
  std::vector<slong> free_index(static_cast<std::size_t>(n), -1);
  for (slong j = 0; j < n; ++j)
    if (row_of[static_cast<std::size_t>(j)] < 0) {
      free_index[static_cast<std::size_t>(j)] = static_cast<slong>(free_columns.size());
      free_columns.push_back(j);
    }
  const auto kf = static_cast<slong>(free_columns.size());
  // Two forms of the same leverage; the smaller Gram is inverted:
  //   ℓ_u = c_uᵀ (R Rᵀ)⁻¹ c_u, c_u column u of the echelon rows R (rank × rank), or
  //   ℓ_u = 1 − n_uᵀ (I + R_Fᵀ R_F)⁻¹ n_u with the kernel basis N = [−R_F; I] (F the free columns):
  //   n_u = −(row of R_F at u's pivot row), or the unit vector of u's free column (kf × kf). The sign
  //   of n_u does not change the form.
  const bool by_rows = rank <= kf;
  const slong size = by_rows ? rank : kf;
  nmod_mat_t basis, transposed, gram, inverse;
  if (by_rows) {
    nmod_mat_init(basis, rank, n, mod.n);
    for (slong k = 0; k < rank; ++k)
      for (slong j = 0; j < n; ++j) nmod_mat_entry(basis, k, j) = nmod_mat_entry(r, k, j);
  } else {
    nmod_mat_init(basis, rank, kf, mod.n);
    for (slong k = 0; k < rank; ++k)
      for (slong f = 0; f < kf; ++f)
        nmod_mat_entry(basis, k, f) = nmod_mat_entry(r, k, free_columns[static_cast<std::size_t>(f)]);
  }
  nmod_mat_init(transposed, basis->c, rank, mod.n);
  nmod_mat_transpose(transposed, basis);
  nmod_mat_init(gram, size, size, mod.n);
  if (by_rows) {
    nmod_mat_mul(gram, basis, transposed);
  } else {
    nmod_mat_mul(gram, transposed, basis);
    for (slong f = 0; f < kf; ++f) nmod_mat_entry(gram, f, f) = nmod_add(nmod_mat_entry(gram, f, f), 1, mod);
  }
  nmod_mat_init(inverse, size, size, mod.n);
  const int invertible = nmod_mat_inv(inverse, gram);
  if (invertible != 0) {
    std::vector<std::uint64_t> v(static_cast<std::size_t>(size));
    for (std::size_t t = 0; t < targets.size(); ++t) {
      const auto u = static_cast<std::size_t>(targets[t]);
      std::fill(v.begin(), v.end(), 0);
      if (by_rows) {
        for (slong k = 0; k < rank; ++k)
          v[static_cast<std::size_t>(k)] = nmod_mat_entry(basis, k, static_cast<slong>(u));
      } else if (row_of[u] >= 0) {
        for (slong f = 0; f < kf; ++f) v[static_cast<std::size_t>(f)] = nmod_mat_entry(basis, row_of[u], f);
      } else {
        v[static_cast<std::size_t>(free_index[u])] = 1;
      }
      std::uint64_t form = 0;  // vᵀ inverse v
      for (slong i = 0; i < size; ++i) {
        if (v[static_cast<std::size_t>(i)] == 0) continue;
        std::uint64_t row = 0;
        for (slong j = 0; j < size; ++j)
          row = nmod_add(row, nmod_mul(nmod_mat_entry(inverse, i, j), v[static_cast<std::size_t>(j)], mod),
                         mod);
        form = nmod_add(form, nmod_mul(v[static_cast<std::size_t>(i)], row, mod), mod);
      }
      out[t] = by_rows ? form : nmod_sub(1, form, mod);
    }
  }
  nmod_mat_clear(inverse);
  nmod_mat_clear(gram);
  nmod_mat_clear(transposed);
  nmod_mat_clear(basis);
  if (invertible == 0) return std::nullopt;
  return out;
}

std::vector<std::size_t> ModularView::independent_rows(std::span<const std::uint8_t> keep) const {
  const nmod_mat_struct* a = impl_->rows;
  const slong m = a->r;
  std::vector<slong> columns;
  for (slong j = 0; j < a->c; ++j)
    if (keep[static_cast<std::size_t>(j)] != 0) columns.push_back(j);
  if (m == 0 || columns.empty()) return {};
  nmod_mat_t restricted;
  nmod_mat_init(restricted, m, static_cast<slong>(columns.size()), a->mod.n);
  for (slong i = 0; i < m; ++i)
    for (std::size_t k = 0; k < columns.size(); ++k)
      nmod_mat_entry(restricted, i, static_cast<slong>(k)) = nmod_mat_entry(a, i, columns[k]);
  // PA = LU with L unit lower triangular on its first `rank` rows: rows P[0..rank) of A are
  // independent (FLINT's generalised LU).
  std::vector<slong> permutation(static_cast<std::size_t>(m));
  const slong rank = nmod_mat_lu(permutation.data(), restricted, 0);
  nmod_mat_clear(restricted);
  std::vector<std::size_t> out;
  for (slong k = 0; k < rank; ++k)
    out.push_back(static_cast<std::size_t>(permutation[static_cast<std::size_t>(k)]));
  return out;
}

std::uint64_t fresh_certificate_seed() {
  std::random_device entropy;
  return (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

ModularSchedule draw_modular_schedule(const RationalSchedule& rational, const gossip::Schedule& schedule,
                                      std::mt19937_64& rng, std::uint64_t avoid) {
  for (;;) {
    const std::uint64_t prime = random_prime(kPrimeBits, rng);
    if (prime == avoid) continue;
    try {
      return ModularSchedule(rational, schedule, prime);
    } catch (const std::runtime_error&) {
      continue;  // the prime divides a denominator of W
    }
  }
}

SweptRankCertifier::SweptRankCertifier(const gossip::Schedule& schedule, std::uint64_t seed)
    : rational_(schedule), modular_([&] {
        std::mt19937_64 rng(seed);
        return draw_modular_schedule(rational_, schedule, rng);
      }()) {}

RankStatement SweptRankCertifier::rank(std::span<const SweptRow> rows, std::size_t block_steps,
                                       std::size_t blocks, std::span<const NodeId> known) const {
  require(block_steps >= 1, "a swept view needs K >= 1 gossip steps per block");
  const std::size_t n = modular_.num_nodes();
  const ModularSchedule::Impl& s = modular_.impl();
  const auto m = static_cast<slong>(rows.size());
  for (slong i = 0; i < m; ++i) {
    const SweptRow& row = rows[static_cast<std::size_t>(i)];
    require(row.node < n && row.last_block < blocks && row.last_block * block_steps <= row.end,
            "swept row {}: node {}, end {}, last block {} do not fit {} nodes and {} blocks of {} steps", i,
            row.node, row.end, row.last_block, n, blocks, block_steps);
    require(s.fixed || row.end <= s.matrices.size(), "swept row {} ends at step {}, after the schedule's {}",
            i, row.end, s.matrices.size());
  }
  for (const NodeId c : known) require(c < n, "known node {} is not a node (num_nodes = {})", c, n);
  // The matrix mod p, cleared on every way out.
  struct Owned {
    nmod_mat_t m;
    Owned(slong rows, slong columns, std::uint64_t prime) { nmod_mat_init(m, rows, columns, prime); }
    ~Owned() { nmod_mat_clear(m); }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
  } owned(m, static_cast<slong>(n * blocks), modular_.prime());
  nmod_mat_struct* a = owned.m;
  std::vector<std::uint64_t> x(n), y(n);
  std::vector<std::uint8_t> support(n), next(n);
  const auto start = [&](NodeId node) {
    std::fill(x.begin(), x.end(), 0);
    std::fill(support.begin(), support.end(), 0);
    x[node] = 1;
    support[node] = 1;
  };
  if (s.fixed) {
    // Block s of a row is e_nodeᵀ W^(end − sK): each node's powers once, then copied.
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return rows[a].node < rows[b].node; });
    std::vector<std::uint64_t> powers;
    for (std::size_t first = 0; first < order.size();) {
      const NodeId node = rows[order[first]].node;
      std::size_t last = first;
      std::size_t depth = 0;
      for (; last < order.size() && rows[order[last]].node == node; ++last)
        depth = std::max(depth, rows[order[last]].end);
      powers.resize((depth + 1) * n);
      start(node);
      for (std::size_t j = 0; j <= depth; ++j) {
        std::copy(x.begin(), x.end(), powers.begin() + static_cast<std::ptrdiff_t>(j * n));
        if (j < depth) modular_step(s.matrices.front(), s.mod, x, support, y, next);
      }
      for (; first < last; ++first) {
        const SweptRow& row = rows[order[first]];
        for (std::size_t b = 0; b <= row.last_block; ++b) {
          const std::uint64_t* power = powers.data() + (row.end - b * block_steps) * n;
          std::copy(power, power + n,
                    nmod_mat_entry_ptr(a, static_cast<slong>(order[first]), static_cast<slong>(b * n)));
        }
      }
    }
  } else {
    for (slong i = 0; i < m; ++i) {
      const SweptRow& row = rows[static_cast<std::size_t>(i)];
      start(row.node);
      // Backward: xᵀ ← xᵀ W_q for q = end − 1 down to sK, block s stored once q reaches sK.
      std::size_t q = row.end;
      for (std::size_t b = row.last_block + 1; b-- > 0;) {
        for (; q > b * block_steps; --q) modular_step(s.matrices[q - 1], s.mod, x, support, y, next);
        std::copy(x.begin(), x.end(), nmod_mat_entry_ptr(a, i, static_cast<slong>(b * n)));
      }
    }
  }
  for (slong i = 0; i < m; ++i)
    for (const NodeId c : known)
      for (std::size_t b = 0; b < blocks; ++b) nmod_mat_entry(a, i, static_cast<slong>(b * n + c)) = 0;
  RankStatement out;
  if (m > 0) {  // in place: nmod_mat_rank would copy the matrix
    std::vector<slong> permutation(rows.size());
    out.rank = static_cast<std::size_t>(nmod_mat_lu(permutation.data(), a, 0));
  }
  // Hadamard's bound on a minor of rank + 1 rows: a row ending at `end` has, integerised, norm at most
  // 2^(end·bits_per_round) in each of its last_block + 1 blocks.
  std::vector<double> bits;
  bits.reserve(rows.size());
  for (const SweptRow& row : rows)
    bits.push_back(static_cast<double>(row.end) * modular_.bits_per_round() +
                   0.5 * std::log2(static_cast<double>(row.last_block + 1)));
  std::sort(bits.begin(), bits.end(), std::greater<>());
  double height = 0.0;
  for (std::size_t k = 0; k < std::min(out.rank + 1, bits.size()); ++k) height += bits[k];
  out.failure_probability = std::min(1.0, misleading_primes(height) / primes_in_range(kPrimeBits));
  return out;
}

std::optional<SmallRational> reconstruct_rational(std::uint64_t value, std::uint64_t prime) {
  fmpz_t a, m;
  fmpq_t q;
  fmpz_init_set_ui(a, value);
  fmpz_init_set_ui(m, prime);
  fmpq_init(q);
  std::optional<SmallRational> out;
  if (fmpq_reconstruct_fmpz(q, a, m) != 0 && fmpz_fits_si(fmpq_numref(q)) && fmpz_fits_si(fmpq_denref(q)))
    out = SmallRational{fmpz_get_si(fmpq_numref(q)), fmpz_get_si(fmpq_denref(q))};
  fmpq_clear(q);
  fmpz_clear(m);
  fmpz_clear(a);
  return out;
}

double round_up(const SmallRational& r) {
  const double v = static_cast<double>(r.num) / static_cast<double>(r.den);
  return mpq_class(v) >= mpq_class(r.num, r.den) ? v
                                                 : std::nextafter(v, std::numeric_limits<double>::infinity());
}

std::uint64_t reduce_rational(const SmallRational& r, std::uint64_t prime) {
  nmod_t mod;
  nmod_init(&mod, prime);
  const auto residue = [prime](std::int64_t z) {
    std::int64_t a = z % static_cast<std::int64_t>(prime);  // prime < 2^63
    if (a < 0) a += static_cast<std::int64_t>(prime);
    return static_cast<std::uint64_t>(a);
  };
  return nmod_mul(residue(r.num), n_invmod(residue(r.den), prime), mod);
}

}  // namespace netdp::accounting::detail
