// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/learn/toml_config.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <fstream>
#include <map>
#include <sstream>

#include "netdp/util/check.hpp"

namespace netdp::learn {
namespace {

// A TOML scalar as the text the schema parses (doubles: shortest round-trip form).
std::string scalar_text(const toml::node& node, const std::string& key, const std::string& source) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* d = node.as_floating_point()) return fmt::format("{}", d->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (node.is_date() || node.is_time() || node.is_date_time()) {
    std::ostringstream out;
    node.visit([&out](const auto& value) { out << value; });
    return out.str();
  }
  const auto line = node.source().begin.line;
  if (node.is_array()) {
    throw std::invalid_argument(
        fmt::format("{}:{}: key '{}' is an array; netdp train takes one scalar per key (write lists as a "
                    "string, e.g. \"1,2,3\")",
                    source, line, key));
  }
  throw std::invalid_argument(fmt::format(
      "{}:{}: key '{}' is a table nested beyond one level; use [section] key = value", source, line, key));
}

// TOML for a config value: bare when it reads back as the same number or boolean text, else quoted.
std::string toml_value(const std::string& value) {
  try {
    const toml::table probe = toml::parse("v = " + value);
    const toml::node* node = probe.get("v");
    // bare only when it reads back as the same text (so "1e-5" stays quoted, exact)
    if (node != nullptr && (node->is_number() || node->is_boolean()) && scalar_text(*node, "v", "") == value)
      return value;
  } catch (const toml::parse_error&) {
    // not a bare TOML scalar: quote it below
  }
  std::ostringstream out;
  out << toml::value<std::string>(value);
  return out.str();
}

// A TOML key: bare when it is [A-Za-z0-9_-]+, else quoted (so "csv.target" stays one key).
std::string toml_key(const std::string& key) {
  const bool bare = !key.empty() && key.find_first_not_of(
                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                        "0123456789_-") == std::string::npos;
  if (bare) return key;
  std::ostringstream out;
  out << toml::value<std::string>(key);
  return out.str();
}

}  // namespace

FlatConfig parse_toml_config(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(fmt::format("{}:{}:{}: malformed TOML: {}", source, e.source().begin.line,
                                            e.source().begin.column, e.description()));
  }
  FlatConfig config;
  for (const auto& [key, node] : root) {
    const std::string name(key.str());
    if (const auto* table = node.as_table()) {
      for (const auto& [sub_key, sub_node] : *table) {
        const std::string full = name + "." + std::string(sub_key.str());
        config[full] = scalar_text(sub_node, full, source);
      }
    } else {
      config[name] = scalar_text(node, name, source);
    }
  }
  return config;
}

FlatConfig load_toml_config(const std::string& path) {
  std::ifstream in(path);
  require_readable(static_cast<bool>(in), "--config '{}': cannot open the file (missing or unreadable)",
                   path);
  // A config is a few kilobytes: read at most 16 MiB, so that an endless stream (/dev/zero, a pipe)
  // is refused instead of buffered.
  constexpr std::size_t kLongest = std::size_t{16} << 20;
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    require(text.size() <= kLongest, "--config '{}': longer than {} bytes: not a training config", path,
            kLongest);
  }
  return parse_toml_config(text, path);
}

void apply_overrides(FlatConfig& config, const std::vector<std::string>& overrides) {
  for (const std::string& item : overrides) {
    const auto eq = item.find('=');
    require(eq != std::string::npos && eq > 0, "--set '{}': expected key=value (e.g. algorithm.sigma=1.5)",
            item);
    config[item.substr(0, eq)] = item.substr(eq + 1);
  }
}

std::string config_to_toml(const FlatConfig& config, const std::string& header_comment) {
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> tables;
  std::string top;
  for (const auto& [key, value] : config) {
    const auto dot = key.find('.');
    if (dot == std::string::npos) {
      top += fmt::format("{} = {}\n", toml_key(key), toml_value(value));
    } else {
      tables[key.substr(0, dot)].emplace_back(key.substr(dot + 1), value);
    }
  }
  std::string out;
  std::istringstream lines(header_comment);
  for (std::string line; std::getline(lines, line);) out += "# " + line + "\n";
  out += top;
  for (const auto& [table, entries] : tables) {
    out += fmt::format("\n[{}]\n", toml_key(table));
    for (const auto& [key, value] : entries)
      out += fmt::format("{} = {}\n", toml_key(key), toml_value(value));
  }
  return out;
}

}  // namespace netdp::learn
