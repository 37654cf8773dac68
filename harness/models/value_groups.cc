// Framing of model-step results for the way back from a worker (see value_groups.h).
#include "harness/models/value_groups.h"

#include <cstdint>
#include <optional>

#include "runtime/base/byte_frame.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

constexpr std::string_view kStepMagic("OGS2", 4);
constexpr std::string_view kValuesMagic("OGV1", 4);

Status Garbled(const std::string& source, const std::string& what) {
  return DataLoss(source + ": the worker's result is garbled (" + what + ")");
}

}  // namespace

std::string EncodeStepResult(const StatusOr<std::string>& result) {
  ByteWriter out;
  out.Raw(kStepMagic);
  out.String(StatusCodeName(result.ok() ? StatusCode::kOk : result.status().code()));
  out.String(result.ok() ? *result : result.status().message());
  return out.Take();
}

StatusOr<std::string> DecodeStepResult(const std::string& bytes, const std::string& source) {
  ByteReader in(bytes);
  std::string code, text;
  if (!in.Magic(kStepMagic) || !in.String(&code) || !in.String(&text) || in.left() != 0) {
    return Garbled(source, "not a step result");
  }
  if (code == StatusCodeName(StatusCode::kOk)) return text;
  // The code crosses by name (StatusCodeName); one this side does not know is garbled.
  const std::optional<StatusCode> status_code = StatusCodeFromName(code);
  if (!status_code) return Garbled(source, "status code '" + code.substr(0, 32) + "'");
  return Status(*status_code, text);
}

std::string EncodeValueGroups(const ValueGroups& groups) {
  ByteWriter out;
  out.Raw(kValuesMagic);
  out.U64(groups.size());
  for (const std::vector<NamedValue>& group : groups) {
    out.U64(group.size());
    for (const NamedValue& v : group) {
      std::string kind;
      std::string proto = SerializeValueProto(v.value, v.name, &kind);
      out.String(v.name);
      out.String(kind);
      out.String(proto);
    }
  }
  return out.Take();
}

StatusOr<ValueGroups> DecodeValueGroups(const std::string& bytes, const std::string& source) {
  ByteReader in(bytes);
  uint64_t group_count = 0;
  // Every group takes at least 8 bytes and every value at least 24: counts beyond what is left
  // are refused before anything is reserved.
  if (!in.Magic(kValuesMagic) || !in.Count(&group_count, 8)) {
    return Garbled(source, "no value groups");
  }
  ValueGroups groups(group_count);
  for (std::vector<NamedValue>& group : groups) {
    uint64_t count = 0;
    if (!in.Count(&count, 24)) return Garbled(source, "a group's size");
    for (uint64_t i = 0; i < count; ++i) {
      std::string name, kind, proto;
      if (!in.String(&name) || !in.String(&kind) || !in.String(&proto)) {
        return Garbled(source, "a value cut short");
      }
      StatusOr<Value> value = ParseValueProto(proto, kind, source + ": value '" + name + "'",
                                              /*external_data_dir=*/nullptr);
      if (!value.ok()) return value.status();
      group.push_back({std::move(name), std::move(value).value()});
    }
  }
  if (in.left() != 0) return Garbled(source, std::to_string(in.left()) + " bytes left over");
  return groups;
}

}  // namespace onnxgate
