// Loading of tolerances.json and resolution of the tolerance layers.
#include "conformance/tolerances.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "runtime/base/contained_file.h"
#include "runtime/base/nesting_depth.h"

namespace onnxgate {

std::string Tolerance::ToString() const {
  char buf[80];
  std::snprintf(buf, sizeof buf, "rtol=%.6g atol=%.6g", rtol, atol);
  return buf;
}

Status ToleranceOverride::Validate(const std::string& where) const {
  auto check = [&](const std::optional<double>& v, const char* name, double most) -> Status {
    if (v && !(std::isfinite(*v) && *v >= 0 && *v <= most)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " must be a finite number in [0, %g], got %g", most, *v);
      return InvalidArgument(where + ": " + name + buf);
    }
    return OkStatus();
  };
  ONNXGATE_RETURN_IF_ERROR(check(rtol, "rtol", kMaxRtol));
  return check(atol, "atol", kMaxAtol);
}

namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "onnxgate-tolerances";
constexpr int kFormatVersion = 1;

// A short rendering of a JSON value for error messages.
std::string Brief(const Json& j) {
  std::string s = j.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

Status KeyError(const std::string& source, const std::string& key, const std::string& what) {
  return InvalidArgument(source + ": " + key + ": " + what);
}

// The rtol or atol of the entry at `key`, within ToleranceOverride's bounds.
Status ReadNumber(const Json& j, const std::string& source, const std::string& key, bool rtol,
                  std::optional<double>* out) {
  const char* which = rtol ? "rtol" : "atol";
  if (!j.is_number()) {
    return KeyError(source, key + "." + which, "expected a number, got " + Brief(j));
  }
  ToleranceOverride one;
  (rtol ? one.rtol : one.atol) = j.get<double>();
  ONNXGATE_RETURN_IF_ERROR(one.Validate(source + ": " + key));
  *out = j.get<double>();
  return OkStatus();
}

StatusOr<DataType> ReadFloatDtype(const std::string& name, const std::string& source,
                                  const std::string& key) {
  StatusOr<DataType> dtype = DataTypeFromName(name);
  if (!dtype.ok()) {
    return KeyError(source, key, "unknown data type '" + name + "' (expected e.g. float16)");
  }
  if (!IsFloatingPoint(*dtype) && !IsLowPrecisionFloat(*dtype) && !IsComplex(*dtype)) {
    return KeyError(source, key,
                    std::string("tolerances apply only to floating-point and complex types, not ") +
                        DataTypeShortName(*dtype) + " (integers must match exactly)");
  }
  return *dtype;
}

// Reads {"rtol": x, "atol": y, "why": "..."}; `extra` names one more key the caller handles.
Status ReadEntry(const Json& j, const std::string& source, const std::string& key,
                 ToleranceLayers::Entry* entry, const char* extra = nullptr) {
  if (!j.is_object()) return KeyError(source, key, "expected an object, got " + Brief(j));
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (k == "rtol") {
      ONNXGATE_RETURN_IF_ERROR(
          ReadNumber(item.value(), source, key, /*rtol=*/true, &entry->values.rtol));
    } else if (k == "atol") {
      ONNXGATE_RETURN_IF_ERROR(
          ReadNumber(item.value(), source, key, /*rtol=*/false, &entry->values.atol));
    } else if (k == "why") {
      if (!item.value().is_string()) {
        return KeyError(source, key + ".why", "expected a string, got " + Brief(item.value()));
      }
      entry->why = item.value().get<std::string>();
    } else if (extra == nullptr || k != extra) {
      return KeyError(source, key + "." + k,
                      std::string("unknown key (expected rtol, atol, why") +
                          (extra ? std::string(", ") + extra : "") + ")");
    }
  }
  // An op entry that only carries a "dtypes" table legitimately sets nothing itself.
  if (entry->values.empty()) {
    if (extra && j.contains(extra)) return OkStatus();
    return KeyError(source, key, "the entry sets neither rtol nor atol");
  }
  if (entry->why.empty()) {
    return KeyError(source, key, "every entry needs a non-empty \"why\" saying what justifies it");
  }
  return OkStatus();
}

Status ReadDtypeTable(const Json& j, const std::string& source, const std::string& key,
                      std::map<DataType, ToleranceLayers::Entry>* out) {
  if (!j.is_object()) return KeyError(source, key, "expected an object, got " + Brief(j));
  for (const auto& item : j.items()) {
    std::string entry_key = key + "." + item.key();
    ONNXGATE_ASSIGN_OR_RETURN(DataType dtype, ReadFloatDtype(item.key(), source, entry_key));
    if (out->count(dtype)) {
      return KeyError(source, entry_key, "data type given twice (under two spellings)");
    }
    ToleranceLayers::Entry entry;
    ONNXGATE_RETURN_IF_ERROR(ReadEntry(item.value(), source, entry_key, &entry));
    (*out)[dtype] = std::move(entry);
  }
  return OkStatus();
}

void Apply(const ToleranceOverride& layer, const std::string& name, ResolvedTolerance* r) {
  if (layer.rtol) {
    r->tolerance.rtol = *layer.rtol;
    r->rtol_source = name;
  }
  if (layer.atol) {
    r->tolerance.atol = *layer.atol;
    r->atol_source = name;
  }
}

}  // namespace

StatusOr<ToleranceLayers> ToleranceLayers::FromJsonText(const std::string& text,
                                                        const std::string& source) {
  ONNXGATE_RETURN_IF_ERROR(CheckNestingDepth(text, NestingSyntax::kJson, kMaxJsonNesting, source));
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::exception& e) {
    return InvalidArgument(source + ": not valid JSON: " + e.what());
  }
  if (!root.is_object()) {
    return InvalidArgument(source + ": expected a JSON object at the top, got " + Brief(root));
  }
  ToleranceLayers layers;
  layers.source_ = source;
  if (!root.contains("format") || root["format"] != kFormat) {
    return KeyError(source, "format",
                    std::string("expected \"") + kFormat + "\", got " +
                        (root.contains("format") ? Brief(root["format"]) : std::string("nothing")));
  }
  if (!root.contains("format_version") || root["format_version"] != kFormatVersion) {
    return KeyError(source, "format_version",
                    "expected " + std::to_string(kFormatVersion) + ", got " +
                        (root.contains("format_version") ? Brief(root["format_version"])
                                                         : std::string("nothing")));
  }
  for (const auto& item : root.items()) {
    const std::string& k = item.key();
    if (k == "format" || k == "format_version") continue;
    if (k == "about") {
      if (!item.value().is_string()) {
        return KeyError(source, k, "expected a string, got " + Brief(item.value()));
      }
    } else if (k == "dtypes") {
      ONNXGATE_RETURN_IF_ERROR(ReadDtypeTable(item.value(), source, "dtypes", &layers.dtypes_));
    } else if (k == "ops") {
      if (!item.value().is_object()) {
        return KeyError(source, "ops", "expected an object, got " + Brief(item.value()));
      }
      for (const auto& op : item.value().items()) {
        std::string op_key = "ops." + op.key();
        if (op.key().empty()) return KeyError(source, op_key, "empty op type");
        OpEntry entry;
        ONNXGATE_RETURN_IF_ERROR(ReadEntry(op.value(), source, op_key, &entry.op, "dtypes"));
        if (op.value().contains("dtypes")) {
          ONNXGATE_RETURN_IF_ERROR(ReadDtypeTable(op.value()["dtypes"], source, op_key + ".dtypes",
                                                  &entry.dtype_entries));
        }
        layers.ops_[op.key()] = std::move(entry);
      }
    } else {
      return KeyError(source, k,
                      "unknown key (expected format, format_version, about, dtypes, ops)");
    }
  }
  return layers;
}

StatusOr<ToleranceLayers> ToleranceLayers::LoadFile(const std::string& path) {
  StatusOr<std::string> text = ReadRegularFile(path, kMaxJsonFileBytes, "tolerances file");
  if (!text.ok()) return text.status().WithContext("reading tolerances");
  return FromJsonText(*text, path);
}

ResolvedTolerance ToleranceLayers::ResolveWithSources(const std::vector<std::string>& op_types,
                                                      DataType dtype,
                                                      const ToleranceOverride& case_tolerance,
                                                      const ToleranceOverride& output_tolerance,
                                                      const ToleranceOverride& cli_override) const {
  // The base every op starts from: the ONNX defaults, then the dtype entry.
  ResolvedTolerance base;
  base.rtol_source = base.atol_source = "ONNX default";
  auto d = dtypes_.find(dtype);
  if (d != dtypes_.end()) {
    Apply(d->second.values, source_ + ": dtypes." + DataTypeShortName(dtype), &base);
  }

  // Per op: its dtype-specific entry is exact; its general entry may only loosen the base.
  // Across ops the loosest value wins. Ops without an entry contribute the base.
  ResolvedTolerance r = base;
  bool first = true;
  for (const std::string& op_type : op_types) {
    ResolvedTolerance mine = base;
    auto o = ops_.find(op_type);
    if (o != ops_.end()) {
      const ToleranceOverride& general = o->second.op.values;
      std::string name = source_ + ": ops." + op_type;
      if (general.rtol && *general.rtol > mine.tolerance.rtol) {
        mine.tolerance.rtol = *general.rtol;
        mine.rtol_source = name;
      }
      if (general.atol && *general.atol > mine.tolerance.atol) {
        mine.tolerance.atol = *general.atol;
        mine.atol_source = name;
      }
      auto od = o->second.dtype_entries.find(dtype);
      if (od != o->second.dtype_entries.end()) {
        Apply(od->second.values, name + ".dtypes." + DataTypeShortName(dtype), &mine);
      }
    }
    if (first || mine.tolerance.rtol > r.tolerance.rtol) {
      r.tolerance.rtol = mine.tolerance.rtol;
      r.rtol_source = mine.rtol_source;
    }
    if (first || mine.tolerance.atol > r.tolerance.atol) {
      r.tolerance.atol = mine.tolerance.atol;
      r.atol_source = mine.atol_source;
    }
    first = false;
  }

  Apply(case_tolerance, "case", &r);
  Apply(output_tolerance, "output", &r);
  Apply(cli_override, "command line", &r);
  return r;
}

Tolerance ToleranceLayers::Resolve(const std::vector<std::string>& op_types, DataType dtype,
                                   const ToleranceOverride& case_tolerance,
                                   const ToleranceOverride& output_tolerance,
                                   const ToleranceOverride& cli_override) const {
  return ResolveWithSources(op_types, dtype, case_tolerance, output_tolerance, cli_override)
      .tolerance;
}

}  // namespace onnxgate
