#include "netdp/util/rng.hpp"

#include <cmath>

#include "netdp/util/check.hpp"

namespace netdp::util {

double Rng::standard_normal() {
  while (true) {
    const double u = 2.0 * uniform01() - 1.0;
    const double v = 2.0 * uniform01() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

double Rng::gamma(double shape) {
  require(std::isfinite(shape) && shape > 0.0, "gamma: the shape must be a finite number > 0, got {}", shape);
  if (shape < 1.0) {
    const double g = gamma(shape + 1.0);
    return g * std::pow(uniform01(), 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x = 0.0;
    double v = 0.0;
    do {
      x = standard_normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform01();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;  // squeeze
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
  }
}

}  // namespace netdp::util
