// A plugin's facts as bytes and back, every field bounded on the way in.
#include "runtime/plugin/plugin_facts.h"

#include <cstdint>
#include <optional>

#include "runtime/base/byte_frame.h"
#include "runtime/base/safe_name.h"
#include "runtime/base/utf8.h"

namespace onnxgate {

namespace {

constexpr char kMagic[] = "onnxgate-plugin-facts-4";
// The longest status code name ("INVALID_ARGUMENT" and room to spare).
constexpr size_t kMaxStatusNameBytes = 32;

// The facts' fields over the shared byte frame: strings and statuses by name.
class Writer : public ByteWriter {
 public:
  void Str(const std::string& s) { String(s); }
  // A status by its code's name (StatusCodeName), then its message.
  void St(const Status& s) {
    Str(StatusCodeName(s.code()));
    Str(s.message());
  }
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}

  Status U64(const char* what, uint64_t* v) { return in_.U64(v) ? OkStatus() : Short(what); }
  Status I64(const char* what, int64_t* v) { return in_.I64(v) ? OkStatus() : Short(what); }
  // A Bool: one byte, 0 or 1.
  Status Flag(const char* what, bool* v) {
    uint8_t byte = 0;
    if (!in_.Byte(&byte)) return Short(what);
    if (byte > 1) {
      return InvalidArgument(std::string(what) + ": " + std::to_string(byte) +
                             " (expected 0 or 1)");
    }
    *v = byte == 1;
    return OkStatus();
  }
  // A count of at most `limit` entries.
  Status Count(const char* what, size_t limit, size_t* n) {
    uint64_t v = 0;
    ONNXGATE_RETURN_IF_ERROR(U64(what, &v));
    if (v > limit) {
      return InvalidArgument(std::string(what) + ": " + std::to_string(v) + " entries (at most " +
                             std::to_string(limit) + ")");
    }
    *n = static_cast<size_t>(v);
    return OkStatus();
  }
  // `utf8`: the string must be valid UTF-8 (a status message need not: it is the plugin's bytes,
  // kept as they were; an availability reason must, since the SKIP message shows it).
  Status Str(const char* what, size_t max_bytes, std::string* s, bool utf8 = true) {
    size_t n = 0;
    ONNXGATE_RETURN_IF_ERROR(Count(what, max_bytes, &n));
    if (!in_.Bytes(n, s)) return Short(what);
    return utf8 ? CheckPluginString(what, *s, max_bytes) : OkStatus();
  }
  // A status written by Writer::St: "OK", or a code StatusCodeFromName knows.
  Status St(const char* what, Status* s, bool utf8 = false) {
    std::string name, message;
    ONNXGATE_RETURN_IF_ERROR(Str(what, kMaxStatusNameBytes, &name));
    ONNXGATE_RETURN_IF_ERROR(Str(what, kMaxPluginTextBytes, &message, utf8));
    if (name == StatusCodeName(StatusCode::kOk)) {
      *s = OkStatus();
      return OkStatus();
    }
    const std::optional<StatusCode> code = StatusCodeFromName(name);
    if (!code) return InvalidArgument(std::string(what) + ": unknown status code '" + name + "'");
    *s = Status(*code, message);
    return OkStatus();
  }
  bool AtEnd() const { return in_.left() == 0; }
  size_t pos() const { return in_.pos(); }

 private:
  Status Short(const char* what) const {
    return InvalidArgument(std::string("truncated at ") + what + " (byte " +
                           std::to_string(in_.pos()) + " of " + std::to_string(in_.size()) + ")");
  }
  ByteReader in_;
};

void WriteClaims(const std::vector<OpClaim>& claims, Writer* w) {
  w->U64(claims.size());
  for (const OpClaim& c : claims) {
    w->Str(c.domain);
    w->Str(c.op_type);
    w->I64(c.since_version);
    w->I64(c.until_version);
    w->U64(c.type_constraints.size());
    for (const TypeConstraint& tc : c.type_constraints) {
      w->Str(tc.name);
      w->U64(tc.types.size());
      for (DataType t : tc.types) w->I64(static_cast<int64_t>(t));
    }
  }
}

Status ReadConstraint(Reader* r, TypeConstraint* tc) {
  ONNXGATE_RETURN_IF_ERROR(r->Str("type constraint name", kMaxPluginNameBytes, &tc->name));
  size_t types = 0;
  ONNXGATE_RETURN_IF_ERROR(r->Count("constraint types", kMaxPluginConstraintTypes, &types));
  for (size_t t = 0; t < types; ++t) {
    int64_t type = 0;
    ONNXGATE_RETURN_IF_ERROR(r->I64("element type", &type));
    if (type <= 0 || type > INT32_MAX || !IsValidDataType(static_cast<int32_t>(type))) {
      return InvalidArgument("element type " + std::to_string(type) + " is not an ONNX type");
    }
    tc->types.push_back(static_cast<DataType>(type));
  }
  return OkStatus();
}

Status ReadClaims(Reader* r, std::vector<OpClaim>* claims) {
  size_t n = 0;
  ONNXGATE_RETURN_IF_ERROR(r->Count("claims", kMaxPluginClaims, &n));
  for (size_t i = 0; i < n; ++i) {
    OpClaim c;
    ONNXGATE_RETURN_IF_ERROR(r->Str("claim domain", kMaxPluginNameBytes, &c.domain));
    ONNXGATE_RETURN_IF_ERROR(r->Str("claim op type", kMaxPluginNameBytes, &c.op_type));
    int64_t since = 0, until = 0;
    ONNXGATE_RETURN_IF_ERROR(r->I64("claim since_version", &since));
    ONNXGATE_RETURN_IF_ERROR(r->I64("claim until_version", &until));
    if (since < 1 || until < since || until > kMaxPluginOpVersion) {
      return InvalidArgument("claim of " + c.op_type + ": versions " + std::to_string(since) +
                             " to " + std::to_string(until));
    }
    c.since_version = static_cast<int>(since);
    c.until_version = static_cast<int>(until);
    size_t constraints = 0;
    ONNXGATE_RETURN_IF_ERROR(r->Count("type constraints", kMaxPluginTypeConstraints, &constraints));
    c.type_constraints.resize(constraints);
    for (TypeConstraint& tc : c.type_constraints) ONNXGATE_RETURN_IF_ERROR(ReadConstraint(r, &tc));
    claims->push_back(std::move(c));
  }
  return OkStatus();
}

Status ReadProvider(Reader* r, PluginFacts* facts) {
  std::string name;
  ONNXGATE_RETURN_IF_ERROR(r->Str("provider name", kMaxPluginNameBytes, &name));
  ONNXGATE_RETURN_IF_ERROR(CheckPluginName("provider", name));
  PluginProviderFacts& p = facts->per_provider[name];
  ONNXGATE_RETURN_IF_ERROR(r->St("claims status", &p.claims_status));
  ONNXGATE_RETURN_IF_ERROR(ReadClaims(r, &p.claims));
  ONNXGATE_RETURN_IF_ERROR(r->St("threads status", &p.threads_status));
  int64_t threads = 0;
  ONNXGATE_RETURN_IF_ERROR(r->I64("max threads", &threads));
  if (p.threads_status.ok() && (threads < 1 || threads > INT32_MAX)) {
    return InvalidArgument("provider '" + name + "' can use " + std::to_string(threads) +
                           " threads");
  }
  p.max_threads = static_cast<int>(threads);
  return r->St("availability", &p.availability, /*utf8=*/true);
}

Status ReadRange(Reader* r, const char* what, VersionRange* range) {
  ONNXGATE_RETURN_IF_ERROR(r->I64(what, &range->min));
  ONNXGATE_RETURN_IF_ERROR(r->I64(what, &range->max));
  if (range->min < 0 || range->max < range->min) {
    return InvalidArgument(std::string(what) + ": " + std::to_string(range->min) + " to " +
                           std::to_string(range->max));
  }
  return OkStatus();
}

Status ReadFacts(Reader* r, PluginFacts* facts) {
  std::string magic;
  ONNXGATE_RETURN_IF_ERROR(r->Str("header", kMaxPluginNameBytes, &magic));
  if (magic != kMagic) return InvalidArgument("no facts header");
  ONNXGATE_RETURN_IF_ERROR(r->Str("name", kMaxPluginNameBytes, &facts->name));
  ONNXGATE_RETURN_IF_ERROR(CheckPluginName("runtime", facts->name));
  ONNXGATE_RETURN_IF_ERROR(r->Str("version", kMaxPluginNameBytes, &facts->version));
  ONNXGATE_RETURN_IF_ERROR(r->Flag("needs case isolation", &facts->needs_case_isolation));
  ONNXGATE_RETURN_IF_ERROR(ReadRange(r, "IR versions", &facts->accepted.ir));
  size_t n = 0;
  ONNXGATE_RETURN_IF_ERROR(r->Count("opset ranges", kMaxPluginOpsetRanges, &n));
  for (size_t i = 0; i < n; ++i) {
    std::string domain;
    ONNXGATE_RETURN_IF_ERROR(r->Str("opset domain", kMaxPluginNameBytes, &domain));
    ONNXGATE_RETURN_IF_ERROR(ReadRange(r, "opset range", &facts->accepted.opsets[domain]));
  }
  ONNXGATE_RETURN_IF_ERROR(r->Count("providers", kMaxPluginProviders, &n));
  for (size_t i = 0; i < n; ++i) {
    std::string name;
    ONNXGATE_RETURN_IF_ERROR(r->Str("provider name", kMaxPluginNameBytes, &name));
    ONNXGATE_RETURN_IF_ERROR(CheckPluginName("provider", name));
    facts->providers.push_back(std::move(name));
  }
  // The listed providers and those the probe was asked about.
  ONNXGATE_RETURN_IF_ERROR(r->Count("provider facts", 2 * kMaxPluginProviders, &n));
  for (size_t i = 0; i < n; ++i) ONNXGATE_RETURN_IF_ERROR(ReadProvider(r, facts));
  if (!r->AtEnd()) {
    return InvalidArgument("trailing bytes after byte " + std::to_string(r->pos()));
  }
  return OkStatus();
}

bool IsValidUtf8(const std::string& s) {
  for (size_t pos = 0; pos < s.size();) {
    size_t length = 0;
    if (DecodeUtf8At(s, pos, &length) == kInvalidUtf8) return false;
    pos += length;
  }
  return true;
}

}  // namespace

std::string EncodePluginFacts(const PluginFacts& facts) {
  Writer w;
  w.Str(kMagic);
  w.Str(facts.name);
  w.Str(facts.version);
  w.Bool(facts.needs_case_isolation);
  w.I64(facts.accepted.ir.min);
  w.I64(facts.accepted.ir.max);
  w.U64(facts.accepted.opsets.size());
  for (const auto& [domain, range] : facts.accepted.opsets) {
    w.Str(domain);
    w.I64(range.min);
    w.I64(range.max);
  }
  w.U64(facts.providers.size());
  for (const std::string& p : facts.providers) w.Str(p);
  w.U64(facts.per_provider.size());
  for (const auto& [name, p] : facts.per_provider) {
    w.Str(name);
    w.St(p.claims_status);
    WriteClaims(p.claims, &w);
    w.St(p.threads_status);
    w.I64(p.max_threads);
    w.St(p.availability);
  }
  return w.Take();
}

StatusOr<PluginFacts> DecodePluginFacts(const std::string& bytes) {
  Reader r(bytes);
  PluginFacts facts;
  ONNXGATE_RETURN_IF_ERROR(ReadFacts(&r, &facts));
  return facts;
}

Status CheckPluginName(const std::string& kind, const std::string& name) {
  return CheckSafeName(kind, name);
}

Status CheckPluginString(const std::string& what, const std::string& s, size_t max_bytes) {
  if (s.size() > max_bytes) {
    return InvalidArgument(what + " is longer than " + std::to_string(max_bytes) + " bytes");
  }
  if (!IsValidUtf8(s)) return InvalidArgument(what + " is not valid UTF-8");
  return OkStatus();
}

}  // namespace onnxgate
