// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// spelled_as_flags: a library message's `identifier` becomes the command line's --flag, and only
// when the command has that flag.
#include "netdp/util/option_spelling.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace netdp::util {
namespace {

TEST(OptionSpelling, AFlagIsTheIdentifierWithDashes) {
  EXPECT_EQ(flag_of("tail_share"), "--tail-share");
  EXPECT_EQ(flag_of("method"), "--method");
}

TEST(OptionSpelling, WritesKnownIdentifiersAsFlags) {
  const std::set<std::string> flags = {"--tail-share", "--method", "--delta"};
  const auto is_flag = [&](const std::string& flag) { return flags.count(flag) > 0; };
  EXPECT_EQ(spelled_as_flags("`tail_share` must be in (0, 1) (the share of `delta`), got 2", is_flag),
            "--tail-share must be in (0, 1) (the share of --delta), got 2");
  EXPECT_EQ(spelled_as_flags("`method` 'x' is not one of", is_flag), "--method 'x' is not one of");
  // Not a flag of this command, not an identifier, or an unclosed quote: kept as written.
  EXPECT_EQ(spelled_as_flags("`gossip_steps` and (`netdp help graphs`)", is_flag),
            "`gossip_steps` and (`netdp help graphs`)");
  EXPECT_EQ(spelled_as_flags("a ` b", is_flag), "a ` b");
  EXPECT_EQ(spelled_as_flags("no quotes", is_flag), "no quotes");
  EXPECT_EQ(spelled_as_flags("", is_flag), "");
}

}  // namespace
}  // namespace netdp::util
