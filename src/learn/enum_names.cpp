// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The name tables of the configuration's enums and the to_string overloads that read them.

#include "enum_names.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>
#include <vector>

namespace netdp::learn {

template <>
std::span<const NamedValue<DataSource>> enum_names<DataSource>() {
  static constexpr std::array<NamedValue<DataSource>, 8> table{{
      {DataSource::synthetic_logistic, "synthetic-logistic"},
      {DataSource::synthetic_linear, "synthetic-linear"},
      {DataSource::mnist, "mnist"},
      {DataSource::idx, "idx"},
      {DataSource::csv, "csv"},
      {DataSource::libsvm, "libsvm"},
      {DataSource::housing, "housing"},
      {DataSource::houses, "houses"},
  }};
  return table;
}

template <>
std::span<const NamedValue<Task>> enum_names<Task>() {
  static constexpr std::array<NamedValue<Task>, 3> table{{
      {Task::binary, "binary"},
      {Task::multiclass, "multiclass"},
      {Task::regression, "regression"},
  }};
  return table;
}

template <>
std::span<const NamedValue<CsvOptions::Missing>> enum_names<CsvOptions::Missing>() {
  static constexpr std::array<NamedValue<CsvOptions::Missing>, 3> table{{
      {CsvOptions::Missing::error, "error"},
      {CsvOptions::Missing::drop_row, "drop_row"},
      {CsvOptions::Missing::mean_impute, "mean_impute"},
  }};
  return table;
}

template <>
std::span<const NamedValue<CsvOptions::Categorical>> enum_names<CsvOptions::Categorical>() {
  static constexpr std::array<NamedValue<CsvOptions::Categorical>, 3> table{{
      {CsvOptions::Categorical::error, "error"},
      {CsvOptions::Categorical::one_hot, "one_hot"},
      {CsvOptions::Categorical::drop, "drop"},
  }};
  return table;
}

template <>
std::span<const NamedValue<PartitionSpec::Kind>> enum_names<PartitionSpec::Kind>() {
  static constexpr std::array<NamedValue<PartitionSpec::Kind>, 4> table{{
      {PartitionSpec::Kind::iid, "iid"},
      {PartitionSpec::Kind::dirichlet, "dirichlet"},
      {PartitionSpec::Kind::shards, "shards"},
      {PartitionSpec::Kind::position, "position"},
  }};
  return table;
}

template <>
std::span<const NamedValue<ModelSpec::Kind>> enum_names<ModelSpec::Kind>() {
  static constexpr std::array<NamedValue<ModelSpec::Kind>, 3> table{{
      {ModelSpec::Kind::logistic, "logistic"},
      {ModelSpec::Kind::linear, "linear"},
      {ModelSpec::Kind::mlp, "mlp"},
  }};
  return table;
}

template <>
std::span<const NamedValue<CalibrateOn>> enum_names<CalibrateOn>() {
  static constexpr std::array<NamedValue<CalibrateOn>, 3> table{{
      {CalibrateOn::mean, "mean"},
      {CalibrateOn::max, "max"},
      {CalibrateOn::local, "local"},
  }};
  return table;
}

template <>
std::span<const NamedValue<CorrelationMethod>> enum_names<CorrelationMethod>() {
  static constexpr std::array<NamedValue<CorrelationMethod>, 3> table{{
      {CorrelationMethod::mafalda, "mafalda"},
      {CorrelationMethod::dmf, "dmf"},
      {CorrelationMethod::per_node, "per-node"},
  }};
  return table;
}

template <>
std::span<const NamedValue<gossip::Weighting>> enum_names<gossip::Weighting>() {
  static const std::vector<NamedValue<gossip::Weighting>> table = [] {
    std::vector<NamedValue<gossip::Weighting>> out;
    for (const gossip::Weighting w : gossip::kAllWeightings) out.push_back({w, gossip::weighting_name(w)});
    return out;
  }();
  return table;
}

std::string_view to_string(DataSource source) { return name_of(source); }
std::string_view to_string(Task task) { return name_of(task); }
std::string_view to_string(CsvOptions::Missing missing) { return name_of(missing); }
std::string_view to_string(CsvOptions::Categorical categorical) { return name_of(categorical); }
std::string_view to_string(PartitionSpec::Kind kind) { return name_of(kind); }
std::string_view to_string(ModelSpec::Kind kind) { return name_of(kind); }
std::string_view to_string(CalibrateOn calibrate_on) { return name_of(calibrate_on); }
std::string_view to_string(CorrelationMethod method) { return name_of(method); }

ModelSpec::Kind parse_model_kind(std::string_view name) {
  return util::parse_enum(enum_names<ModelSpec::Kind>(), name, "model");
}

Task parse_task(std::string_view name) { return util::parse_enum(enum_names<Task>(), name, "task"); }

}  // namespace netdp::learn
