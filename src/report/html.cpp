// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The report's HTML: the page template with everything inlined, written whole or not at all.

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "netdp/report/report.hpp"
#include "netdp/util/atomic_file.hpp"
#include "report/assets.hpp"

namespace netdp::report {
namespace {

std::string html_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// JSON that can stand inside a <script> element: "</" (which would end the element) and "<!--"
/// are written with an escaped '<' or '/', which JSON reads back unchanged.
std::string script_safe_json(const nlohmann::json& data) {
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' && (text.compare(i, 2, "</") == 0 || text.compare(i, 4, "<!--") == 0)) {
      out += "\\u003c";
      continue;
    }
    out += text[i];
  }
  return out;
}

std::string script(std::string_view code) { return "<script>" + std::string(code) + "</script>\n"; }

/// The template with every `@NETDP_NAME@` token replaced by values[NAME]. The template is scanned,
/// not the result, so a value (a title, the data) is never taken for a token.
std::string filled(std::string_view page, const std::map<std::string, std::string, std::less<>>& values) {
  std::string out;
  std::set<std::string_view> seen;
  std::size_t from = 0;
  for (std::size_t at = page.find("@NETDP_"); at != std::string_view::npos; at = page.find("@NETDP_", from)) {
    const std::size_t end = page.find('@', at + 7);
    const auto value =
        end == std::string_view::npos ? values.end() : values.find(page.substr(at + 7, end - at - 7));
    if (value == values.end())
      throw std::logic_error("the report template has an unknown token at " + std::to_string(at));
    out.append(page.substr(from, at - from)).append(value->second);
    seen.insert(value->first);
    from = end + 1;
  }
  if (seen.size() != values.size()) throw std::logic_error("the report template lacks a token");
  return out.append(page.substr(from));
}

}  // namespace

void write_report(const std::string& path, const nlohmann::json& data) {
  const std::string page =
      filled(assets::template_html,
             {{"TITLE", html_escaped(data.value("title", std::string("netdp report")))},
              {"CSS", std::string(assets::report_css)},
              {"LIBRARIES", script(assets::vega) + script(assets::vega_lite) + script(assets::vega_embed)},
              {"DATA", script_safe_json(data)},
              {"REPORT_JS", std::string(assets::report_js)}});
  util::write_file_atomically(path, [&](std::ostream& out) { out << page; });
}

}  // namespace netdp::report
