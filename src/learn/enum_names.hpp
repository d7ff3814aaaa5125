// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the learn module: the one name table of each enum the training configuration uses
// (src/learn/enum_names.cpp). The public to_string overloads, the configuration's parser and its
// documentation all read these tables.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "netdp/gossip/weighting.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/learn/model.hpp"
#include "netdp/learn/train_config.hpp"
#include "netdp/util/enum_names.hpp"

namespace netdp::learn {

template <class E>
using NamedValue = util::EnumName<E>;

/// Every value of E with its name, in documentation order (specialized below, one table per enum).
template <class E>
std::span<const NamedValue<E>> enum_names();

template <>
std::span<const NamedValue<DataSource>> enum_names<DataSource>();
template <>
std::span<const NamedValue<Task>> enum_names<Task>();
template <>
std::span<const NamedValue<CsvOptions::Missing>> enum_names<CsvOptions::Missing>();
template <>
std::span<const NamedValue<CsvOptions::Categorical>> enum_names<CsvOptions::Categorical>();
template <>
std::span<const NamedValue<PartitionSpec::Kind>> enum_names<PartitionSpec::Kind>();
template <>
std::span<const NamedValue<ModelSpec::Kind>> enum_names<ModelSpec::Kind>();
template <>
std::span<const NamedValue<CalibrateOn>> enum_names<CalibrateOn>();
template <>
std::span<const NamedValue<CorrelationMethod>> enum_names<CorrelationMethod>();
/// From gossip::kAllWeightings and gossip::weighting_name (the gossip module owns the names).
template <>
std::span<const NamedValue<gossip::Weighting>> enum_names<gossip::Weighting>();

/// The name of `value` ("unknown" for a value outside the table).
template <class E>
std::string_view name_of(E value) {
  return util::name_of(enum_names<E>(), value);
}

/// The value called `name` (exact), if any.
template <class E>
std::optional<E> value_named(std::string_view name) {
  return util::find_enum(enum_names<E>(), name);
}

/// Every name of E joined by `separator`, in table order.
template <class E>
std::string joined_names(std::string_view separator) {
  return util::names_of(enum_names<E>(), separator);
}

}  // namespace netdp::learn
