// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The library names an option in its messages by its identifier in backticks, `tail_share`: the
// name of the C++ field and of the Python keyword, which is how C++ and Python users read it. The
// command line shows the same message with its flags, --tail-share.

#include <functional>
#include <string>
#include <string_view>

namespace netdp::util {

/// The command line's flag of an option identifier: tail_share → --tail-share.
std::string flag_of(std::string_view identifier);

/// `message` with every backticked identifier `x_y` written as the flag --x-y when
/// `is_flag("--x-y")` holds; other backticked text is kept as it is.
std::string spelled_as_flags(std::string_view message,
                             const std::function<bool(const std::string&)>& is_flag);

}  // namespace netdp::util
