#pragma once
// Private to the learn module: typed readers of resolved config values (errors name key and value).

#include <cstddef>
#include <string>

namespace netdp::learn {

std::size_t parse_count(const std::string& key, const std::string& value);
/// A finite or infinite ("inf") real; rejects text and NaN.
double parse_real(const std::string& key, const std::string& value);
/// true/1 or false/0.
bool parse_bool(const std::string& key, const std::string& value);

struct ScheduleSpec {
  enum class Kind { fixed, er_per_round, dropout } kind = Kind::fixed;
  double p = 1.0;
};
/// fixed | er-per-round:p=P | dropout:p=P, P in (0, 1].
ScheduleSpec parse_schedule(const std::string& key, const std::string& value);

}  // namespace netdp::learn
