// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Numbers for people, rounded up: a bound printed with six significant digits must stay a bound,
// and "%.6g" rounds to the nearest (1.2454525 prints as 1.24545).

#include <string>

namespace netdp::util {

/// x with `digits` significant digits, as "%.{digits}g" writes it, but never below x: where the
/// nearest rounding went down, the last digit goes up by one. Infinities and NaN print as "%g" does.
std::string format_up(double x, int digits = 6);

}  // namespace netdp::util
