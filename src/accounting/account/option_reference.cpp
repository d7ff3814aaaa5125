// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The option reference (option_reference.hpp), written from the option table.

#include "netdp/accounting/account/option_reference.hpp"

#include <fmt/format.h>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/util/option_spelling.hpp"

namespace netdp::accounting {

namespace {

/// The type a Python keyword takes.
std::string_view python_type(OptionType type) {
  switch (type) {
    case OptionType::flag:
      return "bool";
    case OptionType::count:
    case OptionType::integer:
      return "int";
    case OptionType::real:
      return "float";
    case OptionType::choice:
      return "str";
    case OptionType::count_or_choice:
      return "str or int";
    case OptionType::dimension:
      return "\"vector\" or int";
    case OptionType::matrix:
      return "numpy matrix";
  }
  return "";
}

/// Text in a Markdown table cell: `|` escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string methods_of(const AccountOption& option) {
  std::string out;
  for (const auto& entry : kMethodNames) {
    if (!option.applies_to(entry.value)) continue;
    if (!out.empty()) out += ", ";
    out += entry.name;
  }
  return out;
}

/// A help line for Python: each flag --x-y written as the keyword x_y.
std::string as_keywords(std::string_view help) {
  std::string out;
  for (std::size_t i = 0; i < help.size(); ++i) {
    const bool flag =
        help.compare(i, 2, "--") == 0 && i + 2 < help.size() && help[i + 2] >= 'a' && help[i + 2] <= 'z';
    if (!flag) {
      out += help[i];
      continue;
    }
    for (i += 2; i < help.size() && ((help[i] >= 'a' && help[i] <= 'z') || help[i] == '-'); ++i)
      out += help[i] == '-' ? '_' : help[i];
    --i;
  }
  return out;
}

}  // namespace

std::string account_options_markdown(OptionSpelling spelling) {
  const bool python = spelling == OptionSpelling::python;
  std::string out =
      python ? "| keyword | methods | type | values | default | meaning |\n|---|---|---|---|---|---|\n"
             : "| option | methods | values | default | meaning |\n|---|---|---|---|---|\n";
  for (const AccountOption& option : account_options()) {
    std::string name =
        python ? fmt::format("`{}`", option.name) : fmt::format("`{}`", util::flag_of(option.name));
    if (!python && !option.short_flag.empty()) name += fmt::format(", `-{}`", option.short_flag);
    const bool flag = option.type == OptionType::flag;
    const std::string values = flag ? (python ? "True, False" : "given or not") : std::string(option.values);
    // An empty default is described in the help line.
    const std::string default_value = !option.default_value.empty()
                                          ? fmt::format("`{}`", option.default_value)
                                      : flag ? (python ? "`False`" : "not given")
                                             : "see meaning";
    out += fmt::format("| {} | {} | ", name, methods_of(option));
    if (python) out += fmt::format("{} | ", cell(python_type(option.type)));
    const std::string help = python ? as_keywords(option.help) : std::string(option.help);
    out += fmt::format("{} | {} | {} |\n", cell(values), cell(default_value), cell(help));
  }
  return out;
}

}  // namespace netdp::accounting
