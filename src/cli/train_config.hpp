#pragma once
// Private to the cli module: `netdp train` configuration input. A TOML file's
// one-level tables become dotted keys ([algorithm] sigma = 1.5 → "algorithm.sigma"
// → "1.5"), then --set key=value overrides; learn::parse_train_config makes a TrainConfig of them.

#include <string>
#include <vector>

#include "netdp/learn/train.hpp"

namespace netdp::cli {

/// Flattens TOML text (`source` names it in errors, e.g. the file name). Every scalar type
/// becomes text; arrays and tables nested beyond one level are rejected naming the key;
/// malformed TOML is rejected with "source:line:column".
learn::FlatConfig parse_toml_config(const std::string& text, const std::string& source);

/// Reads and flattens a TOML file; a missing or unreadable file is a clear error.
learn::FlatConfig load_toml_config(const std::string& path);

/// Applies "key=value" overrides in order (later wins); a missing '=' or empty key is an error.
void apply_overrides(learn::FlatConfig& config, const std::vector<std::string>& overrides);

/// The config as TOML: keys grouped into tables by their first component; values that read
/// back as the same TOML number or boolean text are written bare, the rest as quoted strings.
std::string config_to_toml(const learn::FlatConfig& config, const std::string& header_comment);

}  // namespace netdp::cli
