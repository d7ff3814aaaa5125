// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "request_options.hpp"

#include "netdp/mf/correlation_io.hpp"
#include "netdp/util/option_spelling.hpp"

namespace netdp::cli {

using accounting::OptionType;

accounting::AccountRequest RequestOptions::resolved() const {
  accounting::AccountRequest out;
  for (const Bound& b : bound) {
    if (b.flag->count() == 0) continue;
    if (b.option->type == OptionType::matrix) {
      out.correlation = mf::read_correlation(correlation_path);
    } else {
      b.option->parse(out, b.on != nullptr ? (*b.on ? "true" : "false") : std::string_view(*b.text));
    }
  }
  return out;
}

namespace {

/// CLI11's type names, which check_every_value reads (UINT and INT are checked as whole numbers).
std::string type_name(OptionType type) {
  switch (type) {
    case OptionType::count:
      return "UINT";
    case OptionType::integer:
      return "INT";
    case OptionType::real:
      return "FLOAT";
    default:
      return "TEXT";
  }
}

}  // namespace

void add_request_options(CLI::App* command, RequestOptions& options, bool audit) {
  for (const accounting::AccountOption& option : accounting::account_options()) {
    if (audit && !option.audited) continue;
    std::string flag = util::flag_of(option.name);
    if (!option.short_flag.empty()) flag += ",-" + std::string(option.short_flag);
    const std::string help(option.help);
    RequestOptions::Bound b{&option};
    if (option.type == OptionType::flag) {
      b.on = &options.switches.emplace_back(false);
      b.flag = command->add_flag(flag, options.switches.back(), help);
    } else if (option.type == OptionType::matrix) {
      b.flag = command->add_option(flag, options.correlation_path, help);
    } else {
      b.text = &options.texts.emplace_back();
      b.flag = command->add_option(flag, options.texts.back(), help)->type_name(type_name(option.type));
      if (!option.default_value.empty()) b.flag->default_str(std::string(option.default_value));
    }
    options.bound.push_back(b);
  }
}

}  // namespace netdp::cli
