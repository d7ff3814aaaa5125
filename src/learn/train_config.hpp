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

}  // namespace netdp::learn
