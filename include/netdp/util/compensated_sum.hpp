// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Neumaier-compensated summation: the running sum of many terms of mixed sizes
// exact to about one ulp (row sums before the 1e-12 stochasticity check, long
// partial series of the random-walk accountant).

#include <cmath>

namespace netdp::util {

class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    compensation_ += std::abs(sum_) >= std::abs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  /// Adds another running sum as it stands (its compensation kept apart, not rounded into a value),
  /// so a sum merged from parts is as accurate as one added term by term.
  void add(const CompensatedSum& other) {
    add(other.sum_);
    compensation_ += other.compensation_;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

}  // namespace netdp::util
