// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The enum <-> name table helper: lookups both ways, the list for help texts, the error of an
// unknown name and the table check.
#include "netdp/util/enum_names.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace netdp::util {
namespace {

using ::testing::HasSubstr;

enum class Colour { red, dark_blue, green };

constexpr auto kColourNames = std::to_array<EnumName<Colour>>({
    {Colour::red, "red"},
    {Colour::dark_blue, "dark-blue"},
    {Colour::green, "green"},
});
static_assert(is_valid_enum_table(kColourNames));
static_assert(name_of(kColourNames, Colour::dark_blue) == "dark-blue");
static_assert(find_enum(kColourNames, "green") == Colour::green);

TEST(EnumNames, EveryValueRoundTrips) {
  for (const EnumName<Colour>& entry : kColourNames) {
    EXPECT_EQ(name_of(kColourNames, entry.value), entry.name);
    EXPECT_EQ(parse_enum(kColourNames, name_of(kColourNames, entry.value), "colour"), entry.value);
  }
}

TEST(EnumNames, AValueMissingFromTheTableIsUnknown) {
  EXPECT_EQ(name_of(kColourNames, static_cast<Colour>(7)), "unknown");
}

TEST(EnumNames, FindIsExactAndCaseSensitive) {
  EXPECT_EQ(find_enum(kColourNames, "red"), Colour::red);
  EXPECT_EQ(find_enum(kColourNames, "Red"), std::nullopt);
  EXPECT_EQ(find_enum(kColourNames, "red "), std::nullopt);
  EXPECT_EQ(find_enum(kColourNames, "dark_blue"), std::nullopt);
  EXPECT_EQ(find_enum(kColourNames, ""), std::nullopt);
}

TEST(EnumNames, NamesInTableOrder) {
  EXPECT_EQ(names_of(kColourNames), "red, dark-blue, green");
  EXPECT_EQ(names_of(kColourNames, " | "), "red | dark-blue | green");
}

TEST(EnumNames, ParseErrorNamesTheTextWhatAndTheChoices) {
  try {
    parse_enum(kColourNames, "blue", "colour");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown colour 'blue'; expected one of: red, dark-blue, green");
  }
  EXPECT_THROW(parse_enum(kColourNames, "", "colour"), std::invalid_argument);
}

TEST(EnumNames, AnOptionsValueIsRefusedNamingTheOption) {
  EXPECT_EQ(parse_option_value(kColourNames, "dark-blue", "colour"), Colour::dark_blue);
  try {
    parse_option_value(kColourNames, "blue", "paint_colour");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "`paint_colour` 'blue' is not one of: red, dark-blue, green");
  }
}

TEST(EnumNames, TableCheckRefusesRepeatsAndEmptyNames) {
  constexpr auto repeated_value =
      std::to_array<EnumName<Colour>>({{Colour::red, "red"}, {Colour::red, "rouge"}});
  constexpr auto repeated_name =
      std::to_array<EnumName<Colour>>({{Colour::red, "red"}, {Colour::green, "red"}});
  constexpr auto empty_name = std::to_array<EnumName<Colour>>({{Colour::red, ""}});
  static_assert(!is_valid_enum_table(repeated_value));
  static_assert(!is_valid_enum_table(repeated_name));
  static_assert(!is_valid_enum_table(empty_name));
  EXPECT_TRUE(is_valid_enum_table(kColourNames));
}

}  // namespace
}  // namespace netdp::util
