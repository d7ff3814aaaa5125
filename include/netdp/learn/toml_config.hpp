// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Training configuration as TOML (`netdp train --config`, netdp.train in Python). A TOML file's
// one-level tables become dotted keys ([algorithm] sigma = 1.5 → "algorithm.sigma"
// → "1.5"), then --set key=value overrides; learn::parse_train_config makes a TrainConfig of them.

#include <string>
#include <vector>

#include "netdp/learn/train.hpp"

namespace netdp::learn {

/// Flattens TOML text (`source` names it in errors, e.g. the file name). Every scalar type
/// becomes text; arrays and tables nested beyond one level are rejected naming the key;
/// malformed TOML is rejected with "source:line:column".
FlatConfig parse_toml_config(const std::string& text, const std::string& source);

/// Reads and flattens a TOML file; a missing or unreadable file is a clear error.
FlatConfig load_toml_config(const std::string& path);

/// Applies "key=value" overrides in order (later wins); a missing '=' or empty key is an error.
void apply_overrides(FlatConfig& config, const std::vector<std::string>& overrides);

/// The config as TOML: keys grouped into tables by their first component; values that read
/// back as the same TOML number or boolean text are written bare, the rest as quoted strings.
std::string config_to_toml(const FlatConfig& config, const std::string& header_comment);

}  // namespace netdp::learn
