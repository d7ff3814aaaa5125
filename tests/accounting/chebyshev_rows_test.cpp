// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The Chebyshev basis of a Muffliato view: the certified spectral interval of W, the rows against a
// long-double recurrence (the forward-error bound must hold), and their span against the powers'.

#include "../../src/accounting/muffliato/chebyshev_rows.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "accounting/muffliato_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite
using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;

struct SymmetricCase {
  std::string name;
  DenseMatrix w;
};

std::vector<SymmetricCase> symmetric_cases() {
  std::vector<SymmetricCase> out;
  out.push_back({"ring12_metropolis", metropolis(12, ring_edges(12))});
  out.push_back({"hypercube4_hamilton", hamilton(16, hypercube_edges(4))});
  out.push_back({"star9_hamilton", hamilton(9, star_edges(9))});
  for (unsigned seed = 1; seed <= 3; ++seed)
    out.push_back({"er40_" + std::to_string(seed), hamilton(40, random_connected_edges(40, 0.1, seed))});
  out.push_back({"er500", hamilton(500, random_connected_edges(500, 0.01, 7))});  // Lanczos estimate
  return out;
}

TEST(ChebyshevRows, SpectralIntervalContainsTheSpectrumAndIsTight) {
  for (const SymmetricCase& c : symmetric_cases()) {
    const detail::SpectralInterval interval = detail::certified_spectral_interval(to_sparse(c.w));
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(c.w, Eigen::EigenvaluesOnly);
    const Vector& lambda = eig.eigenvalues();
    // The dense eigenvalues are themselves accurate only to about n ε ‖W‖.
    const double solver_error = 1e-13;
    EXPECT_LE(interval.lower, lambda(0) + solver_error) << c.name;
    EXPECT_GE(interval.upper, lambda(lambda.size() - 1) - solver_error) << c.name;
    // The lower end is verified just below the estimate, not at Gershgorin's −1.
    EXPECT_GT(interval.lower, lambda(0) - 1e-6) << c.name;
    EXPECT_LT(interval.upper, 1.0 + 1e-12) << c.name;
  }
}

/// The same recurrence in long double, with the map W -> αW + βI that chebyshev_rows used.
LongMatrix long_double_rows(const DenseMatrix& w, long double alpha, long double beta,
                            const std::vector<detail::TimedSender>& messages) {
  const LongMatrix wl = w.cast<long double>();
  const LongMatrix mapped = alpha * wl + beta * LongMatrix::Identity(w.rows(), w.cols());
  LongMatrix out(static_cast<Eigen::Index>(messages.size()), w.cols());
  for (std::size_t k = 0; k < messages.size(); ++k) {
    Eigen::Matrix<long double, Eigen::Dynamic, 1> previous, current;
    current = Eigen::Matrix<long double, Eigen::Dynamic, 1>::Zero(w.rows());
    current(static_cast<Eigen::Index>(messages[k].sender)) = 1.0L;
    for (std::size_t t = 0; t < messages[k].time; ++t) {
      Eigen::Matrix<long double, Eigen::Dynamic, 1> next = (t == 0 ? 1.0L : 2.0L) * (mapped * current);
      if (t > 0) next -= previous;
      previous = current;
      current = next;
    }
    out.row(static_cast<Eigen::Index>(k)) = current.transpose();
  }
  return out;
}

std::vector<detail::TimedSender> all_messages(const std::vector<graph::NodeId>& senders, std::size_t rounds) {
  std::vector<detail::TimedSender> out;
  for (std::size_t t = 0; t < rounds; ++t)
    for (graph::NodeId s : senders) out.push_back({t, s});
  return out;
}

TEST(ChebyshevRows, ForwardErrorBoundHoldsAgainstLongDouble) {
  for (const SymmetricCase& c : symmetric_cases()) {
    const auto n = static_cast<graph::NodeId>(c.w.rows());
    const SparseMatrix w = to_sparse(c.w);
    const detail::SpectralInterval interval = detail::certified_spectral_interval(w);
    for (std::size_t rounds : {1u, 5u, 40u}) {
      const auto messages = all_messages({0, n / 2, n - 1}, rounds);
      const detail::ChebyshevRows rows = detail::chebyshev_rows(w, interval, messages);
      // The map sends the certified interval into [−1, 1] (where |U_k| <= k + 1).
      EXPECT_GE(static_cast<long double>(rows.alpha) * interval.lower + rows.beta, -1.0L) << c.name;
      EXPECT_LE(static_cast<long double>(rows.alpha) * interval.upper + rows.beta, 1.0L) << c.name;
      const LongMatrix reference = long_double_rows(c.w, rows.alpha, rows.beta, messages);
      const auto actual = static_cast<double>((rows.rows.cast<long double>() - reference).norm());
      EXPECT_LE(actual, rows.forward_error) << c.name << " T = " << rounds;
      // Every row of an exact Chebyshev basis on [−1, 1] has norm <= 1.
      for (Eigen::Index r = 0; r < rows.rows.rows(); ++r)
        EXPECT_LE(rows.rows.row(r).norm(), 1.0 + 1e-9) << c.name << " row " << r;
      if (rounds == 1) {
        EXPECT_EQ(rows.forward_error, 0.0) << c.name << ": T_0 = I is exact";
      }
      // The local errors are measured (double-double residuals), so the bound is not vacuous.
      EXPECT_LT(rows.forward_error, 1e-11) << c.name << " T = " << rounds;
      if (actual > 0.0) {
        EXPECT_LT(rows.forward_error, 1000.0 * actual) << c.name << " T = " << rounds;
      }
    }
  }
}

TEST(ChebyshevRows, ErrorTableGivesEveryViewTheBoundsItWouldMeasure) {
  // Each column of the recurrence is computed and measured on its own, so a sender's rows and
  // bounds are the same bits in every block: views of 1 to 70 senders (every vector tile and tail
  // of the sparse product), heard at different times, read from the table exactly what they measure.
  for (const SymmetricCase& c : symmetric_cases()) {
    const auto n = static_cast<graph::NodeId>(c.w.rows());
    const SparseMatrix w = to_sparse(c.w);
    const detail::SpectralInterval interval = detail::certified_spectral_interval(w);
    const std::size_t last = 12;
    const detail::ChebyshevErrorTable table = detail::chebyshev_error_table(w, interval, last);
    ASSERT_EQ(table.nodes(), static_cast<std::size_t>(n));
    for (const graph::NodeId count : {1u, 3u, 7u, 9u, 17u, 33u, 70u}) {
      if (count > n) continue;
      std::vector<detail::TimedSender> messages;
      for (std::size_t t = 0; t <= last; ++t)
        for (graph::NodeId k = 0; k < count; ++k)
          if ((t + k) % 3 != 1 || t == last) messages.push_back({t, (k * 7 + 3) % n});
      std::sort(messages.begin(), messages.end(), [](const auto& a, const auto& b) {
        return a.time < b.time || (a.time == b.time && a.sender < b.sender);
      });
      messages.erase(
          std::unique(messages.begin(), messages.end(),
                      [](const auto& a, const auto& b) { return a.time == b.time && a.sender == b.sender; }),
          messages.end());
      const detail::ChebyshevRows measured = detail::chebyshev_rows(w, interval, messages);
      const detail::ChebyshevRows read = detail::chebyshev_rows(w, interval, messages, false, &table);
      EXPECT_GT(measured.forward_error, 0.0) << c.name << ", " << count << " senders";
      EXPECT_EQ(read.forward_error, measured.forward_error) << c.name << ", " << count << " senders";
      EXPECT_EQ(read.rows, measured.rows) << c.name << ", " << count << " senders";
    }
    // A table not deep enough for the view is not used: the bounds are measured.
    const detail::ChebyshevErrorTable shallow = detail::chebyshev_error_table(w, interval, 2);
    const auto deep = all_messages({0, n - 1}, 6);
    EXPECT_EQ(detail::chebyshev_rows(w, interval, deep, false, &shallow).forward_error,
              detail::chebyshev_rows(w, interval, deep).forward_error)
        << c.name;
    EXPECT_THROW(static_cast<void>(shallow.at(0, 3)), std::invalid_argument);
  }
}

TEST(ChebyshevRows, GramFromTheProductIdentityEqualsTheRowsGram) {
  // G[(s,w),(t,w′)] = (T_{s+t} + T_{|s−t|})_{ww′} / 2, against the long-double rows' own Gram; the
  // senders' message times need not be the same (a gap, and one sender heard once).
  for (const SymmetricCase& c : symmetric_cases()) {
    const auto n = static_cast<graph::NodeId>(c.w.rows());
    const SparseMatrix w = to_sparse(c.w);
    const detail::SpectralInterval interval = detail::certified_spectral_interval(w);
    for (std::size_t rounds : {1u, 2u, 7u, 30u}) {
      auto messages = all_messages({0, n / 2}, rounds);
      messages.push_back({rounds + 2, n - 1});
      const detail::ChebyshevRows rows = detail::chebyshev_rows(w, interval, messages, true);
      ASSERT_TRUE(rows.gram.has_value()) << c.name;
      const LongMatrix reference = long_double_rows(c.w, rows.alpha, rows.beta, messages);
      const LongMatrix exact = reference * reference.transpose();
      for (Eigen::Index j = 0; j < exact.cols(); ++j)
        for (Eigen::Index i = j; i < exact.rows(); ++i)
          EXPECT_NEAR((*rows.gram)(i, j), static_cast<double>(exact(i, j)), 1e-12)
              << c.name << " T = " << rounds << " entry " << i << ", " << j;
    }
    EXPECT_FALSE(detail::chebyshev_rows(w, interval, all_messages({0}, 3)).gram.has_value());
  }
}

/// The projector on the row space of `a` (long-double SVD, singular values below 1e-13 · s_1 cut).
LongMatrix row_projector(const LongMatrix& a) {
  Eigen::JacobiSVD<LongMatrix> svd(a, Eigen::ComputeThinV);
  const auto& s = svd.singularValues();
  Eigen::Index rank = 0;
  while (rank < s.size() && s(rank) > 1e-13L * s(0)) ++rank;
  const LongMatrix v = svd.matrixV().leftCols(rank);
  return v * v.transpose();
}

TEST(ChebyshevRows, SpanTheSameSpaceAsThePowers) {
  // Well-conditioned views (few rounds), where the powers' row space is resolved exactly.
  for (const SymmetricCase& c : symmetric_cases()) {
    if (c.w.rows() > 40) continue;
    const auto n = static_cast<graph::NodeId>(c.w.rows());
    const auto messages = all_messages({0, n - 1}, 4);
    const SparseMatrix w = to_sparse(c.w);
    const detail::ChebyshevRows rows =
        detail::chebyshev_rows(w, detail::certified_spectral_interval(w), messages);
    LongMatrix powers(static_cast<Eigen::Index>(messages.size()), c.w.cols());
    for (std::size_t k = 0; k < messages.size(); ++k) {
      Eigen::Matrix<long double, Eigen::Dynamic, 1> x =
          Eigen::Matrix<long double, Eigen::Dynamic, 1>::Zero(n);
      x(static_cast<Eigen::Index>(messages[k].sender)) = 1.0L;
      for (std::size_t t = 0; t < messages[k].time; ++t) x = c.w.cast<long double>() * x;
      powers.row(static_cast<Eigen::Index>(k)) = x.transpose();
    }
    const LongMatrix difference = row_projector(powers) - row_projector(rows.rows.cast<long double>());
    EXPECT_LT(static_cast<double>(difference.norm()), 1e-10) << c.name;
  }
}

TEST(ChebyshevRows, RejectsAnEmptyMatrix) {
  EXPECT_THROW(detail::certified_spectral_interval(SparseMatrix(0, 0)), std::invalid_argument);
}

TEST(ChebyshevRows, RejectsANonSymmetricMatrix) {
  DenseMatrix w = hamilton(6, ring_edges(6));
  w(0, 1) += 0.125;  // row-stochastic no more, and W != Wᵀ
  EXPECT_FALSE(detail::exactly_symmetric(to_sparse(w)));
  EXPECT_TRUE(detail::exactly_symmetric(to_sparse(hamilton(6, ring_edges(6)))));
  EXPECT_THROW(detail::certified_spectral_interval(to_sparse(w)), std::invalid_argument);
}

TEST(ChebyshevRows, RejectsANonFiniteEntry) {
  DenseMatrix w = hamilton(6, ring_edges(6));
  w(2, 3) = w(3, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(detail::certified_spectral_interval(to_sparse(w)), std::invalid_argument);
}

TEST(ChebyshevRows, RejectsUnsortedMessagesAndSendersOutsideTheGraph) {
  const SparseMatrix w = to_sparse(hamilton(6, ring_edges(6)));
  const detail::SpectralInterval interval = detail::certified_spectral_interval(w);
  const std::vector<detail::TimedSender> unsorted{{2, 1}, {1, 1}};
  EXPECT_THROW(detail::chebyshev_rows(w, interval, unsorted), std::invalid_argument);
  const std::vector<detail::TimedSender> outside{{0, 6}};
  EXPECT_THROW(detail::chebyshev_rows(w, interval, outside), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
