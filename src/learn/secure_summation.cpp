// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/learn/secure_summation.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "netdp/util/check.hpp"

namespace netdp::learn {
namespace {

// 2^62: the largest magnitude (exclusive) of an encoded term and of a receiver's sum of |terms|,
// which keeps every partial integer sum inside int64 with a factor-2 margin.
constexpr double kRangeLimit = 4611686018427387904.0;

void check_fractional_bits(int fractional_bits) {
  require(fractional_bits >= 0 && fractional_bits <= 52,
          "secure summation: fractional_bits must be in [0, 52], got {}", fractional_bits);
}

}  // namespace

std::uint64_t encode_fixed(double value, int fractional_bits) {
  check_fractional_bits(fractional_bits);
  require(std::isfinite(value), "secure summation: value to encode must be finite, got {}", value);
  const double scaled = std::ldexp(value, fractional_bits);
  require(std::abs(scaled) < kRangeLimit,
          "secure summation: |value| · 2^{} must be < 2^62 for exact fixed-point sums, got value {}",
          fractional_bits, value);
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(std::llround(scaled)));
}

double decode_fixed(std::uint64_t word, int fractional_bits) {
  check_fractional_bits(fractional_bits);
  // C++20: unsigned → signed conversion is modular (two's complement).
  return std::ldexp(static_cast<double>(static_cast<std::int64_t>(word)), -fractional_bits);
}

SecureSummation::SecureSummation(const SparseMatrix& W, std::uint64_t seed, int fractional_bits)
    : W_(W), seed_(seed), fractional_bits_(fractional_bits) {
  check_fractional_bits(fractional_bits);
  require(W.rows() == W.cols() && W.rows() > 0,
          "secure summation: W must be square and non-empty, got {} x {}", W.rows(), W.cols());
  W_.makeCompressed();
  senders_.resize(static_cast<std::size_t>(W_.rows()));
  for (int v = 0; v < W_.outerSize(); ++v) {
    for (SparseMatrix::InnerIterator it(W_, v); it; ++it) {
      require(std::isfinite(it.value()), "secure summation: W({}, {}) must be finite, got {}", v, it.col(),
              it.value());
      if (it.col() != v && it.value() != 0.0) senders_[static_cast<std::size_t>(v)].push_back(it.col());
    }
  }
}

void SecureSummation::check_node(int node, const char* what) const {
  require(node >= 0 && static_cast<std::size_t>(node) < num_nodes(),
          "secure summation: {} must be in [0, {}), got {}", what, num_nodes(), node);
}

std::span<const int> SecureSummation::senders(int receiver) const {
  check_node(receiver, "receiver");
  return senders_[static_cast<std::size_t>(receiver)];
}

double SecureSummation::weight(int receiver, int sender) const { return W_.coeff(receiver, sender); }

std::uint64_t SecureSummation::pair_key(int a, int b) const {
  check_node(a, "node a");
  check_node(b, "node b");
  require(a != b, "secure summation: a pair key needs two distinct nodes, got {} twice", a);
  const auto lo = static_cast<std::uint64_t>(std::min(a, b));
  const auto hi = static_cast<std::uint64_t>(std::max(a, b));
  return prf_word(prf_word(seed_, lo), hi);
}

std::vector<std::uint64_t> SecureSummation::mask_sum(int sender, int receiver, std::uint64_t round,
                                                     std::size_t dim) const {
  check_node(sender, "sender");
  std::vector<std::uint64_t> total(dim, 0);
  for (const int other : senders(receiver)) {
    if (other == sender) continue;
    // m_ab(v, t): a stream keyed by (k_ab, v, t); fresh per receiver and round.
    const std::uint64_t stream =
        prf_word(prf_word(pair_key(sender, other), static_cast<std::uint64_t>(receiver)), round);
    const bool add = sender < other;  // s_ab = +1 for the smaller index, −1 for the larger
    for (std::size_t c = 0; c < dim; ++c) {
      const std::uint64_t m = prf_word(stream, c);
      total[c] = add ? total[c] + m : total[c] - m;  // unsigned arithmetic: exact modulo 2^64
    }
  }
  return total;
}

std::vector<std::uint64_t> SecureSummation::message(int sender, int receiver, std::uint64_t round,
                                                    const Eigen::Ref<const Vector>& x_sender) const {
  const auto from = senders(receiver);
  require(std::find(from.begin(), from.end(), sender) != from.end(),
          "secure summation: node {} does not send to node {} (W({}, {}) = 0 or same node)", sender, receiver,
          receiver, sender);
  const double w = weight(receiver, sender);
  std::vector<std::uint64_t> words =
      mask_sum(sender, receiver, round, static_cast<std::size_t>(x_sender.size()));
  for (Eigen::Index c = 0; c < x_sender.size(); ++c) {
    words[static_cast<std::size_t>(c)] += encode_fixed(w * x_sender[c], fractional_bits_);
  }
  return words;
}

Vector SecureSummation::aggregate(int receiver, std::span<const std::vector<std::uint64_t>> messages,
                                  const Eigen::Ref<const Vector>& x_receiver) const {
  const auto from = senders(receiver);
  require(messages.size() == from.size(), "secure summation: node {} expects {} messages, got {}", receiver,
          from.size(), messages.size());
  const auto dim = static_cast<std::size_t>(x_receiver.size());
  std::vector<std::uint64_t> sum(dim, 0);
  for (std::size_t k = 0; k < messages.size(); ++k) {
    require(messages[k].size() == dim, "secure summation: message {} to node {} has {} words, expected {}", k,
            receiver, messages[k].size(), dim);
    for (std::size_t c = 0; c < dim; ++c) sum[c] += messages[k][c];
  }
  const double self = weight(receiver, receiver);
  Vector out(x_receiver.size());
  for (std::size_t c = 0; c < dim; ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    out[i] = decode_fixed(sum[c], fractional_bits_) + self * x_receiver[i];
  }
  return out;
}

DenseMatrix SecureSummation::run_round(const DenseMatrix& X, std::uint64_t round) const {
  require(static_cast<std::size_t>(X.rows()) == num_nodes(),
          "secure summation: X must have {} rows (one per node), got {}", num_nodes(), X.rows());
  require(X.allFinite(), "secure summation: every entry of X must be finite");
  DenseMatrix out(X.rows(), X.cols());
  std::vector<std::vector<std::uint64_t>> messages;
  for (int v = 0; v < static_cast<int>(num_nodes()); ++v) {
    const auto from = senders(v);
    for (Eigen::Index c = 0; c < X.cols(); ++c) {
      double magnitude = 0.0;
      for (const int u : from) magnitude += std::abs(weight(v, u) * X(u, c));
      require(std::ldexp(magnitude, fractional_bits_) < kRangeLimit,
              "secure summation: node {}'s neighbourhood sum of |W_vu x_u| in coordinate {} is {}, which "
              "exceeds 2^(62 - fractional_bits = {}); lower fractional_bits",
              v, c, magnitude, fractional_bits_);
    }
    messages.clear();
    for (const int u : from) messages.push_back(message(u, v, round, X.row(u).transpose()));
    out.row(v) = aggregate(v, messages, X.row(v).transpose()).transpose();
  }
  return out;
}

}  // namespace netdp::learn
