// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The `netdp` command-line application.

namespace netdp::cli {

/// Runs the netdp command with the given arguments. Returns the process exit
/// status: 0 on success, 2 on bad input (message on stderr), 1 on any other failure.
int run(int argc, char** argv);

}  // namespace netdp::cli
