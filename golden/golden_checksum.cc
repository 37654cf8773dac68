// GoldenValueSha256 and GoldenContentSha256: the canonical bytes of golden/golden_checksum.h fed
// to SHA-256 as they are produced.
#include "golden/golden_checksum.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/base/sha256.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the canonical bytes are little-endian and are taken from tensor storage as it is"
#endif

namespace onnxgate {

namespace {

class CanonicalBytes {
 public:
  void U8(uint8_t v) { hasher_.Update(std::string_view(reinterpret_cast<const char*>(&v), 1)); }
  void U64(uint64_t v) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    hasher_.Update(std::string_view(bytes, 8));
  }
  void F64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    U64(bits);
  }
  void Str(std::string_view s) {
    U64(s.size());
    hasher_.Update(s);
  }
  void Raw(const void* data, size_t size) {
    hasher_.Update(std::string_view(static_cast<const char*>(data), size));
  }
  std::string HexDigest() { return hasher_.HexDigest(); }

 private:
  Sha256Hasher hasher_;
};

const char* KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kTensor: return "tensor";
    case Value::Kind::kSequence: return "sequence";
    case Value::Kind::kOptional: return "optional";
    case Value::Kind::kNone:
    case Value::Kind::kResident:  // never leaves a session
      break;
  }
  return "none";
}

void Tolerance(const std::optional<double>& t, CanonicalBytes* out) {
  out->U8(t ? 1 : 0);
  if (t) out->F64(*t);
}

void TensorBytes(const Tensor& t, CanonicalBytes* out) {
  out->Str(DataTypeName(t.dtype()));
  const std::vector<int64_t>& dims = t.shape().dims();
  out->U64(dims.size());
  for (int64_t d : dims) out->U64(static_cast<uint64_t>(d));
  const int64_t n = t.NumElements();
  if (t.dtype() == DataType::kString) {
    const std::string* strings = t.data<std::string>();
    for (int64_t i = 0; i < n; ++i) out->Str(strings[i]);
  } else if (IsPackedSubByte(t.dtype())) {
    // One byte per element, as the golden stores them.
    const bool is_int = IsSubByteInteger(t.dtype());
    std::vector<uint8_t> unpacked(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      unpacked[static_cast<size_t>(i)] =
          is_int ? static_cast<uint8_t>(static_cast<int8_t>(t.SubByteInt(i))) : t.PackedCode(i);
    }
    out->Raw(unpacked.data(), unpacked.size());
  } else if (n > 0) {
    out->Raw(t.raw_data(), t.ByteSize());
  }
}

void AnyBytes(const Value& v, CanonicalBytes* out) {
  out->Str(KindName(v.kind()));
  switch (v.kind()) {
    case Value::Kind::kTensor: TensorBytes(v.tensor(), out); return;
    case Value::Kind::kSequence:
      out->Str(DataTypeName(v.elem_type()));
      out->U64(v.sequence().size());
      for (const Tensor& t : v.sequence()) TensorBytes(t, out);
      return;
    case Value::Kind::kOptional:
      out->Str(DataTypeName(v.elem_type()));
      out->Str(KindName(v.optional_inner_kind()));
      out->U8(v.has_value() ? 1 : 0);
      if (v.has_value()) AnyBytes(v.optional_value(), out);
      return;
    case Value::Kind::kNone:
    case Value::Kind::kResident:  // never leaves a session
      return;
  }
}

void ValueDigests(const std::vector<GoldenValue>& values, CanonicalBytes* out) {
  std::vector<const GoldenValue*> sorted;
  for (const GoldenValue& v : values) sorted.push_back(&v);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const GoldenValue* a, const GoldenValue* b) { return a->index < b->index; });
  out->U64(sorted.size());
  for (const GoldenValue* v : sorted) out->Str(GoldenValueSha256(*v));
}

}  // namespace

std::string GoldenValueSha256(const GoldenValue& value) {
  CanonicalBytes out;
  out.Str("onnxgate-golden-value-v1");
  out.Str(value.name);
  out.U64(static_cast<uint64_t>(value.index));
  Tolerance(value.rtol, &out);
  Tolerance(value.atol, &out);
  AnyBytes(value.value, &out);
  return out.HexDigest();
}

std::string GoldenContentSha256(const GoldenFile& golden) {
  CanonicalBytes out;
  out.Str("onnxgate-golden-content-v1");
  out.Str(golden.producer);
  out.Str(golden.model_sha256);
  out.Str(golden.model_files_sha256);
  out.Str(FormatOpsetImports(golden.opset_imports));
  out.Str(golden.created);
  out.Str(golden.source);
  out.U64(golden.sets.size());
  const bool with_intermediates = GoldenFormatVersionFor(golden) >= 3;
  for (const GoldenSet& set : golden.sets) {
    ValueDigests(set.inputs, &out);
    ValueDigests(set.outputs, &out);
    if (with_intermediates) ValueDigests(set.intermediates, &out);
  }
  if (golden.layerwise_every != 1) {
    out.Str("layerwise_every");
    out.U64(static_cast<uint64_t>(golden.layerwise_every));
  }
  if (!golden.layerwise_precision.empty()) {
    out.Str("layerwise_precision");
    out.Str(golden.layerwise_precision);
  }
  return out.HexDigest();
}

}  // namespace onnxgate
