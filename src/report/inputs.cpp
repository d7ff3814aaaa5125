// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "netdp/report/report.hpp"

namespace netdp::report {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const std::string& file, const std::string& why) {
  throw std::invalid_argument("report input '" + file + "' " + why);
}

nlohmann::json parse_file(const fs::path& path, const std::string& file) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(file, "cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) refuse(file, "cannot be read");
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos) refuse(file, "is empty");
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    refuse(file, std::string("is not complete JSON (a truncated or unfinished file?): ") + e.what());
  } catch (const nlohmann::json::exception& e) {  // a number past the range of a double
    refuse(file, std::string("is JSON that netdp cannot read: ") + e.what());
  }
}

bool has(const nlohmann::json& j, const char* key) { return j.is_object() && j.contains(key); }

/// What wrote `document`, from the fields only that command writes.
std::optional<InputKind> kind_of(const nlohmann::json& document) {
  if (has(document, "summary") && has(document["summary"], "method") &&
      has(document["summary"], "by_distance"))
    return InputKind::account;
  if (has(document, "by_distance") && has(document, "muffliato_bound") && has(document, "local_dp"))
    return InputKind::compare;
  if (has(document, "verdict") && has(document, "claimed_epsilon") &&
      has(document, "empirical_epsilon_lower"))
    return InputKind::audit;
  if (has(document, "algorithm") && has(document, "final_test_loss") && has(document, "netdp_version"))
    return InputKind::train;
  return std::nullopt;
}

Input read_training_run(const fs::path& folder, const std::string& file) {
  const fs::path summary = folder / "summary.json";
  const fs::path metrics = folder / "metrics.json";
  if (fs::is_empty(folder))
    refuse(file,
           "is an empty folder, not a training run (`netdp train --out DIR` writes summary.json and "
           "metrics.json there)");
  if (!fs::exists(summary) || !fs::exists(metrics))
    refuse(file, std::string("is a folder without ") +
                     (fs::exists(summary) ? "metrics.json" : "summary.json") +
                     ": not (or not yet) a training run of `netdp train --out DIR`");
  Input input{file, InputKind::train, parse_file(summary, (folder / "summary.json").string())};
  if (kind_of(input.document) != InputKind::train)
    refuse((folder / "summary.json").string(), "is not the summary.json of `netdp train`");
  nlohmann::json rows = parse_file(metrics, (folder / "metrics.json").string());
  if (!rows.is_array()) refuse((folder / "metrics.json").string(), "is not an array of evaluations");
  input.document["metrics"] = std::move(rows);
  return input;
}

}  // namespace

std::string input_kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::account:
      return "account";
    case InputKind::compare:
      return "compare";
    case InputKind::audit:
      return "audit";
    case InputKind::train:
      return "train";
  }
  return "?";
}

Input input_from_json(nlohmann::json document, const std::string& name) {
  const std::optional<InputKind> kind = kind_of(document);
  if (!kind)
    refuse(name,
           "is JSON, but not the output of `netdp account --json`, `compare --json`, `audit --json` or "
           "the folder of `train --out` (none of their fields is there)");
  if (*kind == InputKind::train && !has(document, "metrics"))
    refuse(name, "is the summary.json of a training run: give its folder, which also holds metrics.json");
  return {name, *kind, std::move(document)};
}

Input read_input(const std::string& file) {
  const fs::path path(file);
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) refuse(file, "does not exist");
  if (fs::is_directory(status)) return read_training_run(path, file);
  nlohmann::json document = parse_file(path, file);
  if (kind_of(document) == InputKind::train)
    return read_training_run(path.has_parent_path() ? path.parent_path() : fs::path("."), file);
  return input_from_json(std::move(document), file);
}

}  // namespace netdp::report
