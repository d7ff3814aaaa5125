// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers shared by the data readers (not part of the public API).

#include <string>
#include <string_view>
#include <vector>

#include "netdp/learn/dataset.hpp"

namespace netdp::learn::detail {

/// Strict number parsing: the whole field (surrounding spaces and a leading '+' allowed) must be a
/// finite decimal number; "nan", "inf" and trailing garbage are rejected.
bool parse_double(std::string_view text, double& value);

/// Fills data.targets, num_classes and class_names from raw label strings (one per example).
/// regression: every label must be a number. binary: labels in {−1, +1}, {0, 1} or {−1, 0, 1}
/// with no mix of −1 and 0 (mapped by sign: > 0 → 1), or otherwise exactly two distinct labels
/// (the smaller, numerically or else lexicographically, → 0). multiclass: the distinct labels in
/// sorted order → 0..C−1 (C ≥ 2). `source` names the file in messages; `line_of[i]` is the line
/// of label i.
void assign_targets(Dataset& data, const std::vector<std::string>& labels, Task task,
                    const std::vector<std::size_t>& line_of, const std::string& source);

}  // namespace netdp::learn::detail
