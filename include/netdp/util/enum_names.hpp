// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One table per enum gives its names: the printer (name_of), the parser (parse_enum, find_enum)
// and the list for help texts and errors (names_of) all read it, so they cannot disagree.
//
//   inline constexpr auto kColourNames = std::to_array<util::EnumName<Colour>>(
//       {{Colour::red, "red"}, {Colour::dark_blue, "dark-blue"}});
//   static_assert(util::is_valid_enum_table(kColourNames));
//   name_of(kColourNames, Colour::red)              // "red"
//   parse_enum(kColourNames, "blue", "colour")      // throws: unknown colour 'blue'; expected one
//                                                   //         of: red, dark-blue
//
// A table replaces a `switch`, so the compiler no longer warns about an enumerator left out: test
// that every enumerator round-trips (name_of then parse_enum).

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace netdp::util {

/// One enumerator and its name.
template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

/// Whether the table is usable: non-empty names, no value or name listed twice.
template <class E, std::size_t N>
constexpr bool is_valid_enum_table(const std::array<EnumName<E>, N>& table) {
  for (std::size_t i = 0; i < N; ++i) {
    if (table[i].name.empty()) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (table[i].value == table[j].value || table[i].name == table[j].name) return false;
    }
  }
  return true;
}

/// The enum of a table: a std::array or std::span of EnumName<E>.
template <class Table>
using enum_of = decltype(std::declval<typename Table::value_type>().value);

/// The name of `value`, or "unknown" if the table does not list it (an out-of-range cast).
template <class Table>
constexpr std::string_view name_of(const Table& table, enum_of<Table> value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "unknown";
}

/// The value named exactly `text` (case-sensitive), if any.
template <class Table>
constexpr std::optional<enum_of<Table>> find_enum(const Table& table, std::string_view text) {
  for (const auto& entry : table) {
    if (entry.name == text) return entry.value;
  }
  return std::nullopt;
}

/// The names in table order, joined by `separator` (default ", "), for help texts and errors.
template <class Table>
std::string names_of(const Table& table, std::string_view separator = ", ") {
  std::string out;
  for (const auto& entry : table) {
    if (!out.empty()) out += separator;
    out += entry.name;
  }
  return out;
}

/// The value of an option named exactly `text`. Throws std::invalid_argument
/// "`<option>` '<text>' is not one of: <names_of(table)>" (the option spelled as util/option_spelling.hpp
/// reads it).
template <class Table>
enum_of<Table> parse_option_value(const Table& table, std::string_view text, std::string_view option) {
  if (const auto value = find_enum(table, text)) return *value;
  throw std::invalid_argument(fmt::format("`{}` '{}' is not one of: {}", option, text, names_of(table)));
}

/// The value named exactly `text`. Throws std::invalid_argument
/// "unknown <what> '<text>'; expected one of: <names_of(table)>".
template <class Table>
enum_of<Table> parse_enum(const Table& table, std::string_view text, std::string_view what) {
  if (const auto value = find_enum(table, text)) return *value;
  throw std::invalid_argument(
      fmt::format("unknown {} '{}'; expected one of: {}", what, text, names_of(table)));
}

}  // namespace netdp::util
