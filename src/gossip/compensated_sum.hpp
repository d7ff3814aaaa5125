#pragma once
// Private to the gossip module: Neumaier-compensated summation, so that row and
// column sums of large-degree rows are exact to ~1 ulp before the 1e-12 check.

#include <cmath>

namespace netdp::gossip::detail {

class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    compensation_ += std::abs(sum_) >= std::abs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

}  // namespace netdp::gossip::detail
