// Loading of tolerances.json and resolution of the tolerance layers.
#include "conformance/tolerances.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "runtime/base/contained_file.h"
#include "runtime/base/json_reader.h"

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

constexpr const char* kFormat = "onnxgate-tolerances";
constexpr int kFormatVersion = 1;

// "<file>: <path>", as ToleranceOverride::Validate names where a value came from.
std::string Where(const JsonValue& j) {
  return j.source() + (j.path().empty() ? "" : ": " + j.path());
}

StatusOr<DataType> ReadFloatDtype(const std::string& name, const JsonValue& at) {
  StatusOr<DataType> dtype = DataTypeFromName(name);
  if (!dtype.ok()) return at.Error("unknown data type '" + name + "' (expected e.g. float16)");
  if (!IsFloatingPoint(*dtype) && !IsLowPrecisionFloat(*dtype) && !IsComplex(*dtype)) {
    return at.Error(std::string("tolerances apply only to floating-point and complex types, not ") +
                    DataTypeShortName(*dtype) + " (integers must match exactly)");
  }
  return *dtype;
}

// Reads {"rtol": x, "atol": y, "why": "..."}; an op's entry may hold a "dtypes" table too, which
// the caller reads.
Status ReadEntry(const JsonValue& j, bool op_entry, ToleranceLayers::Entry* entry) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject o, j.Object());
  ONNXGATE_RETURN_IF_ERROR(op_entry ? o.OnlyKeys({"rtol", "atol", "why", "dtypes"})
                                    : o.OnlyKeys({"rtol", "atol", "why"}));
  ONNXGATE_RETURN_IF_ERROR(o.Read("rtol", &entry->values.rtol));
  ONNXGATE_RETURN_IF_ERROR(o.Read("atol", &entry->values.atol));
  ONNXGATE_RETURN_IF_ERROR(entry->values.Validate(Where(j)));
  ONNXGATE_RETURN_IF_ERROR(o.Read("why", &entry->why));
  // An op entry that only carries a "dtypes" table legitimately sets nothing itself.
  if (entry->values.empty()) {
    if (op_entry && o.Has("dtypes")) return OkStatus();
    return j.Error("the entry sets neither rtol nor atol");
  }
  if (entry->why.empty()) {
    return j.Error("every entry needs a non-empty \"why\" saying what justifies it");
  }
  return OkStatus();
}

Status ReadDtypeTable(const JsonValue& j, std::map<DataType, ToleranceLayers::Entry>* out) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject table, j.Object());
  return table.ForEachMember([&](const std::string& name, const JsonValue& value) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(DataType dtype, ReadFloatDtype(name, value));
    if (out->count(dtype)) return value.Error("data type given twice (under two spellings)");
    return ReadEntry(value, /*op_entry=*/false, &(*out)[dtype]);
  });
}

// "format" and "format_version" must name this format.
Status CheckFormat(const JsonObject& root) {
  std::optional<JsonValue> format = root.Find("format");
  if (!format || format->raw() != kFormat) {
    return root.FieldError("format", std::string("expected \"") + kFormat + "\", got " +
                                         (format ? format->Describe() : "nothing"));
  }
  std::optional<JsonValue> version = root.Find("format_version");
  if (!version || version->raw() != kFormatVersion) {
    return root.FieldError("format_version", "expected " + std::to_string(kFormatVersion) +
                                                 ", got " +
                                                 (version ? version->Describe() : "nothing"));
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
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc, JsonDocument::Parse(text, source));
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject root, doc.RootObject());
  ONNXGATE_RETURN_IF_ERROR(CheckFormat(root));
  ONNXGATE_RETURN_IF_ERROR(root.OnlyKeys({"format", "format_version", "about", "dtypes", "ops"}));
  std::string about;
  ONNXGATE_RETURN_IF_ERROR(root.Read("about", &about));
  ToleranceLayers layers;
  layers.source_ = source;
  if (std::optional<JsonValue> dtypes = root.Find("dtypes")) {
    ONNXGATE_RETURN_IF_ERROR(ReadDtypeTable(*dtypes, &layers.dtypes_));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> ops, root.OptionalObject("ops"));
  if (!ops) return layers;
  ONNXGATE_RETURN_IF_ERROR(ops->ForEachMember([&](const std::string& op, const JsonValue& value) {
    if (op.empty()) return value.Error("empty op type");
    OpEntry& entry = layers.ops_[op];
    ONNXGATE_RETURN_IF_ERROR(ReadEntry(value, /*op_entry=*/true, &entry.op));
    std::optional<JsonValue> dtypes = value.Object()->Find("dtypes");
    return dtypes ? ReadDtypeTable(*dtypes, &entry.dtype_entries) : OkStatus();
  }));
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
