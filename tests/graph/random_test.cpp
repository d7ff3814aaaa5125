// The RNG and its distributions.
#include "netdp/graph/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace netdp::graph {
namespace {

TEST(Rng, IsTheStandardMt19937_64) {
  // The C++ standard fixes this value: the 10000th output of a default-seeded
  // mt19937_64 ([rand.predef]); default seed is 5489.
  Rng rng(5489);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = rng.next();
  EXPECT_EQ(x, 9981545732273789042ull);
}

TEST(Rng, Uniform01UsesTheTop53Bits) {
  std::mt19937_64 engine(42);
  Rng rng(42);
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t raw = engine();
    EXPECT_EQ(rng.uniform01(), std::ldexp(static_cast<double>(raw >> 11), -53));
  }
}

TEST(Rng, UniformBelowIsRejectionThenModulo) {
  // Literal definition: draw r until r >= 2^64 mod b, return r mod b.
  const std::uint64_t bound = (std::uint64_t{1} << 63) + 12345;  // large bound: rejection happens often
  const std::uint64_t threshold = static_cast<std::uint64_t>(-bound) % bound;
  std::mt19937_64 engine(7);
  Rng rng(7);
  int rejections = 0;
  for (int i = 0; i < 200; ++i) {
    std::uint64_t r = engine();
    while (r < threshold) {
      r = engine();
      ++rejections;
    }
    EXPECT_EQ(rng.uniform_below(bound), r % bound);
  }
  EXPECT_GT(rejections, 0);
  EXPECT_EQ(Rng(1).uniform_below(1), 0u);
}

TEST(Rng, UniformBelowIsUniform) {
  Rng rng(3);
  const int bound = 7;
  const int draws = 70000;
  std::vector<int> count(bound, 0);
  for (int i = 0; i < draws; ++i) ++count[rng.uniform_below(bound)];
  const double expected = draws / static_cast<double>(bound);
  for (int c : count) EXPECT_NEAR(c, expected, 5 * std::sqrt(expected));
}

}  // namespace
}  // namespace netdp::graph
