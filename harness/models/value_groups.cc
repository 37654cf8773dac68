// Framing of model-step results for the way back from a worker (see value_groups.h).
#include "harness/models/value_groups.h"

#include <cstdint>
#include <cstring>
#include <optional>

#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

constexpr char kStepMagic[4] = {'O', 'G', 'S', '2'};
constexpr char kValuesMagic[4] = {'O', 'G', 'V', '1'};

void PutU64(uint64_t v, std::string* out) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out->append(bytes, 8);
}

void PutString(const std::string& s, std::string* out) {
  PutU64(s.size(), out);
  out->append(s);
}

// Reads fields from a byte string, refusing to read past its end.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  bool U64(uint64_t* v) {
    if (bytes_.size() - pos_ < 8) return false;
    *v = 0;
    for (int i = 0; i < 8; ++i) {
      *v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
    }
    pos_ += 8;
    return true;
  }
  bool String(std::string* s) {
    uint64_t size = 0;
    if (!U64(&size) || size > bytes_.size() - pos_) return false;
    s->assign(bytes_, pos_, size);
    pos_ += size;
    return true;
  }
  bool Magic(const char (&magic)[4]) {
    if (bytes_.size() - pos_ < 4 || std::memcmp(bytes_.data() + pos_, magic, 4) != 0) return false;
    pos_ += 4;
    return true;
  }
  size_t left() const { return bytes_.size() - pos_; }

 private:
  const std::string& bytes_;
  size_t pos_ = 0;
};

Status Garbled(const std::string& source, const std::string& what) {
  return DataLoss(source + ": the worker's result is garbled (" + what + ")");
}

}  // namespace

std::string EncodeStepResult(const StatusOr<std::string>& result) {
  std::string out(kStepMagic, 4);
  PutString(StatusCodeName(result.ok() ? StatusCode::kOk : result.status().code()), &out);
  PutString(result.ok() ? *result : result.status().message(), &out);
  return out;
}

StatusOr<std::string> DecodeStepResult(const std::string& bytes, const std::string& source) {
  Reader in(bytes);
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
  std::string out(kValuesMagic, 4);
  PutU64(groups.size(), &out);
  for (const std::vector<NamedValue>& group : groups) {
    PutU64(group.size(), &out);
    for (const NamedValue& v : group) {
      std::string kind;
      std::string proto = SerializeValueProto(v.value, v.name, &kind);
      PutString(v.name, &out);
      PutString(kind, &out);
      PutString(proto, &out);
    }
  }
  return out;
}

StatusOr<ValueGroups> DecodeValueGroups(const std::string& bytes, const std::string& source) {
  Reader in(bytes);
  uint64_t group_count = 0;
  // Every group takes at least 8 bytes and every value at least 24: counts beyond what is left
  // are refused before anything is reserved.
  if (!in.Magic(kValuesMagic) || !in.U64(&group_count) || group_count > in.left() / 8) {
    return Garbled(source, "no value groups");
  }
  ValueGroups groups(group_count);
  for (std::vector<NamedValue>& group : groups) {
    uint64_t count = 0;
    if (!in.U64(&count) || count > in.left() / 24) return Garbled(source, "a group's size");
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
