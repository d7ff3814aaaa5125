// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/learn/secure_summation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace netdp::learn {
namespace {

// W_ij = 1 / max(d_i, d_j) off the diagonal, W_ii = 1 − Σ_j W_ij (Koskela–Kulkarni Section 5).
SparseMatrix max_degree_gossip(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<int> degree(static_cast<std::size_t>(n), 0);
  for (const auto& [a, b] : edges) {
    ++degree[static_cast<std::size_t>(a)];
    ++degree[static_cast<std::size_t>(b)];
  }
  DenseMatrix dense = DenseMatrix::Zero(n, n);
  for (const auto& [a, b] : edges) {
    const double w = 1.0 / std::max(degree[static_cast<std::size_t>(a)], degree[static_cast<std::size_t>(b)]);
    dense(a, b) = w;
    dense(b, a) = w;
  }
  for (int i = 0; i < n; ++i) dense(i, i) = 1.0 - dense.row(i).sum();
  return dense.sparseView();
}

// A 7-node graph: a ring plus two chords; node 6 is a leaf hanging off node 0 (one sender).
SparseMatrix test_graph() {
  return max_degree_gossip(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}, {1, 4}, {6, 0}});
}

DenseMatrix test_inputs(int n, int d) {
  DenseMatrix X(n, d);
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < d; ++c) X(i, c) = std::sin(1.7 * i + 0.3 * c) * (1.0 + i) - 0.25 * c;
  }
  return X;
}

TEST(SecureSummation, FixedPointRoundTripIsWithinHalfAQuantum) {
  for (const int f : {0, 16, 32, 52}) {
    const double quantum = std::ldexp(1.0, -f);
    for (const double z : {0.0, 1.0, -1.0, 0.1234567891, -3.75e-3, 12345.678}) {
      if (std::abs(z) * std::ldexp(1.0, f) >= std::ldexp(1.0, 62)) continue;
      EXPECT_LE(std::abs(decode_fixed(encode_fixed(z, f), f) - z), 0.5 * quantum) << "z=" << z << " f=" << f;
    }
  }
  // Negative values are two's complement: enc(−z) = −enc(z) modulo 2^64.
  EXPECT_EQ(encode_fixed(-2.5, 8), std::uint64_t{0} - encode_fixed(2.5, 8));
}

TEST(SecureSummation, FixedPointRejectsBadInput) {
  EXPECT_THROW(encode_fixed(std::numeric_limits<double>::quiet_NaN(), 32), std::invalid_argument);
  EXPECT_THROW(encode_fixed(std::numeric_limits<double>::infinity(), 32), std::invalid_argument);
  EXPECT_THROW(encode_fixed(std::ldexp(1.0, 30), 32), std::invalid_argument);  // 2^62 is out of range
  EXPECT_THROW(encode_fixed(1.0, 53), std::invalid_argument);
  EXPECT_THROW(encode_fixed(1.0, -1), std::invalid_argument);
  EXPECT_THROW(decode_fixed(1, 60), std::invalid_argument);
}

TEST(SecureSummation, SendersAreTheNeighboursInWsRow) {
  const SecureSummation protocol(test_graph(), 7);
  const auto s0 = protocol.senders(0);
  EXPECT_EQ(std::vector<int>(s0.begin(), s0.end()), (std::vector<int>{1, 3, 5, 6}));
  const auto s6 = protocol.senders(6);
  EXPECT_EQ(std::vector<int>(s6.begin(), s6.end()), (std::vector<int>{0}));
}

TEST(SecureSummation, MasksCancelExactlyInEveryNeighbourhood) {
  const SecureSummation protocol(test_graph(), 2024);
  const std::size_t dim = 5;
  for (std::uint64_t round = 0; round < 4; ++round) {
    for (int v = 0; v < 7; ++v) {
      std::vector<std::uint64_t> total(dim, 0);
      for (const int a : protocol.senders(v)) {
        const auto mask = protocol.mask_sum(a, v, round, dim);
        for (std::size_t c = 0; c < dim; ++c) total[c] += mask[c];
      }
      for (std::size_t c = 0; c < dim; ++c)
        EXPECT_EQ(total[c], 0U) << "receiver " << v << " coordinate " << c;
    }
  }
}

TEST(SecureSummation, MasksAreNonTrivialAndFreshPerRoundAndReceiver) {
  const SecureSummation protocol(test_graph(), 2024);
  // Node 1 sends to 0 and to 2 (both have several senders): masks differ by receiver and round.
  const auto to0 = protocol.mask_sum(1, 0, 3, 4);
  EXPECT_NE(to0, std::vector<std::uint64_t>(4, 0));
  EXPECT_NE(to0, protocol.mask_sum(1, 0, 4, 4));
  EXPECT_NE(to0, protocol.mask_sum(1, 2, 3, 4));
  EXPECT_EQ(protocol.pair_key(2, 5), protocol.pair_key(5, 2));
  EXPECT_NE(protocol.pair_key(2, 5), protocol.pair_key(2, 4));
}

TEST(SecureSummation, MessageIsEncodedTermPlusAnInputFreeMask) {
  const SecureSummation protocol(test_graph(), 99);
  const SparseMatrix W = test_graph();
  Vector x(3);
  x << 0.5, -1.25, 3.0;
  Vector x_other(3);
  x_other << 1000.0, 0.0, -77.0;
  for (const int a : protocol.senders(0)) {
    const auto mask = protocol.mask_sum(a, 0, 11, 3);  // takes no input value at all
    const auto m = protocol.message(a, 0, 11, x);
    const auto m_other = protocol.message(a, 0, 11, x_other);
    for (int c = 0; c < 3; ++c) {
      const auto uc = static_cast<std::size_t>(c);
      EXPECT_EQ(m[uc] - mask[uc], encode_fixed(W.coeff(0, a) * x[c], 32));
      EXPECT_EQ(m_other[uc] - mask[uc], encode_fixed(W.coeff(0, a) * x_other[c], 32));
    }
  }
}

// Chi-square statistic of the top 4 bits of `words` against the uniform distribution on 16 bins.
double chi_square_top_nibble(const std::vector<std::uint64_t>& words) {
  std::array<double, 16> counts{};
  for (const auto w : words) counts[w >> 60U] += 1.0;
  const double expected = static_cast<double>(words.size()) / 16.0;
  double chi2 = 0.0;
  for (const double k : counts) chi2 += (k - expected) * (k - expected) / expected;
  return chi2;
}

TEST(SecureSummation, SingleMessagesLookUniformWhateverTheInput) {
  // Over many rounds, the first word of node 1's message to node 0 is uniform for a zero input
  // and for a huge one (15 degrees of freedom: 37.7 is the 0.1 % quantile; seeds are fixed).
  const SecureSummation protocol(test_graph(), 5);
  for (const double value : {0.0, 1.0e6}) {
    Vector x = Vector::Constant(1, value);
    std::vector<std::uint64_t> words;
    for (std::uint64_t round = 0; round < 4000; ++round) words.push_back(protocol.message(1, 0, round, x)[0]);
    EXPECT_LT(chi_square_top_nibble(words), 37.7) << "input " << value;
  }
  // With no input at all (the plain encodings of a constant), the words would be one bin only.
  std::vector<std::uint64_t> plain(4000, encode_fixed(0.25 * 1.0e6, 32));
  EXPECT_GT(chi_square_top_nibble(plain), 1000.0);
}

TEST(SecureSummation, LoneSenderIsUnmaskedAsItsSumRevealsItAnyway) {
  const SecureSummation protocol(test_graph(), 5);
  Vector x = Vector::Constant(2, 0.75);
  const auto m = protocol.message(0, 6, 1, x);
  const double w = test_graph().coeff(6, 0);
  EXPECT_EQ(m[0], encode_fixed(w * 0.75, 32));
}

TEST(SecureSummation, RoundEqualsThePlainWeightedSum) {
  const SparseMatrix W = test_graph();
  const int f = 32;
  const SecureSummation protocol(W, 31337, f);
  const DenseMatrix X = test_inputs(7, 4);
  const DenseMatrix got = protocol.run_round(X, 8);
  // Literal reference without masks: Σ_u enc(W_vu x_u) modulo 2^64, decoded, plus W_vv x_v.
  for (int v = 0; v < 7; ++v) {
    for (int c = 0; c < 4; ++c) {
      std::uint64_t sum = 0;
      double plain = W.coeff(v, v) * X(v, c);
      int senders = 0;
      for (int u = 0; u < 7; ++u) {
        if (u == v || W.coeff(v, u) == 0.0) continue;
        sum += encode_fixed(W.coeff(v, u) * X(u, c), f);
        plain += W.coeff(v, u) * X(u, c);
        ++senders;
      }
      EXPECT_EQ(got(v, c), decode_fixed(sum, f) + W.coeff(v, v) * X(v, c))
          << "bitwise, v=" << v << " c=" << c;
      EXPECT_NEAR(got(v, c), plain, senders * std::ldexp(1.0, -(f + 1)) + 1e-12) << "v=" << v << " c=" << c;
    }
  }
  EXPECT_LT((got - DenseMatrix(W * X)).cwiseAbs().maxCoeff(), 4 * std::ldexp(1.0, -(f + 1)) + 1e-12);
}

TEST(SecureSummation, SameSeedSameMessagesOtherSeedOtherMasks) {
  const SecureSummation a(test_graph(), 1);
  const SecureSummation b(test_graph(), 1);
  const SecureSummation c(test_graph(), 2);
  Vector x = Vector::Constant(3, -0.5);
  EXPECT_EQ(a.message(3, 4, 2, x), b.message(3, 4, 2, x));
  EXPECT_NE(a.message(3, 4, 2, x), c.message(3, 4, 2, x));
  EXPECT_EQ(a.run_round(test_inputs(7, 2), 3), c.run_round(test_inputs(7, 2), 3));  // masks cancel either way
}

TEST(SecureSummation, BadInputIsRejectedWithAMessage) {
  const SparseMatrix W = test_graph();
  const SecureSummation protocol(W, 1);
  EXPECT_THROW(SecureSummation(SparseMatrix(3, 4), 1), std::invalid_argument);
  EXPECT_THROW(SecureSummation(W, 1, 60), std::invalid_argument);
  EXPECT_THROW(protocol.run_round(DenseMatrix::Zero(6, 2), 0), std::invalid_argument);
  DenseMatrix nan = DenseMatrix::Zero(7, 2);
  nan(3, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(protocol.run_round(nan, 0), std::invalid_argument);
  DenseMatrix huge = DenseMatrix::Zero(7, 1);
  huge(1, 0) = 1.2e9;  // 1.2e9 · ¼ · 2^32 ≈ 1.3e18 per term; node 0 sums four of them above 2^62
  huge(3, 0) = 1.2e9;
  huge(5, 0) = 1.2e9;
  huge(6, 0) = 1.2e9;
  EXPECT_THROW(protocol.run_round(huge, 0), std::invalid_argument);
  Vector x = Vector::Zero(2);
  EXPECT_THROW(protocol.message(2, 0, 0, x), std::invalid_argument);  // 2 is not 0's neighbour
  EXPECT_THROW(protocol.message(0, 0, 0, x), std::invalid_argument);
  EXPECT_THROW(protocol.senders(7), std::invalid_argument);
  EXPECT_THROW(protocol.pair_key(1, 1), std::invalid_argument);
  std::vector<std::vector<std::uint64_t>> too_few(1, std::vector<std::uint64_t>(2, 0));
  EXPECT_THROW(protocol.aggregate(0, too_few, x), std::invalid_argument);
  try {
    protocol.message(2, 0, 0, x);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("node 2 does not send to node 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace netdp::learn
