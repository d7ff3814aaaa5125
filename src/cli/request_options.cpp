#include "request_options.hpp"

#include <algorithm>

#include "netdp/mf/correlation_io.hpp"

namespace netdp::cli {

using accounting::OptionType;

accounting::AccountRequest RequestOptions::resolved() const {
  accounting::AccountRequest out;
  std::size_t text = 0;
  std::size_t state = 0;
  for (const Bound& b : bound) {
    const bool is_flag = b.option->type == OptionType::flag;
    const bool given = b.flag->count() > 0;
    if (b.option->type == OptionType::matrix) {
      if (given) out.correlation = mf::read_correlation(correlation_path);
      continue;
    }
    if (given)
      accounting::set_account_option(out, b.option->name,
                                     is_flag ? (switches[state] ? "true" : "false") : texts[text]);
    is_flag ? ++state : ++text;
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
    std::string flag = "--" + std::string(option.name);
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (!option.short_flag.empty()) flag += ",-" + std::string(option.short_flag);
    const std::string help(option.help);
    CLI::Option* added = nullptr;
    if (option.type == OptionType::flag) {
      options.switches.push_back(false);
      added = command->add_flag(flag, options.switches.back(), help);
    } else if (option.type == OptionType::matrix) {
      added = command->add_option(flag, options.correlation_path, help);
    } else {
      options.texts.emplace_back();
      added = command->add_option(flag, options.texts.back(), help)->type_name(type_name(option.type));
      if (!option.default_value.empty()) added->default_str(std::string(option.default_value));
    }
    options.bound.push_back({&option, added});
  }
}

}  // namespace netdp::cli
