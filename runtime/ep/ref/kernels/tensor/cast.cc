// Cast and CastLike.
#include "runtime/ep/ref/kernels/tensor/cast.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/tensor/cast_string.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// Numeric and bool element types with every conversion between them.
template <typename Fn>
Status VisitCastTypes(DataType type, Fn&& fn) {
  if (type == DataType::kBool) return fn(bool{});
  return VisitArithmeticTypes(type, fn);
}

template <typename From, typename To>
To ConvertNumber(From v) {
  if constexpr (std::is_same_v<From, To>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return ToCompute(v) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return FromCompute<To>(static_cast<ComputeType<To>>(v ? 1 : 0));
  } else if constexpr (kIsHalf<To>) {
    if constexpr (std::is_same_v<From, float> || kIsHalf<From>) {
      return To::FromFloat(ToCompute(v));  // float holds every float16/bfloat16 exactly
    } else {
      return To::FromFloat(RoundToOddFloat(static_cast<double>(v)));
    }
  } else if constexpr (kIsInt<To> && kIsFloat<From>) {
    return SaturatingCast<To>(static_cast<double>(ToCompute(v)));
  } else {
    // int -> int wraps, int -> float and float -> float round to nearest.
    return static_cast<To>(ToCompute(v));
  }
}

template <typename From>
std::string NumberToText(From v) {
  if constexpr (kIsFloat<From>) {
    return FloatToText(static_cast<double>(ToCompute(v)), DataTypeOf<From>::value);
  } else {
    return IntegerToText(v);
  }
}

template <typename To>
StatusOr<To> TextToNumber(const std::string& s) {
  if constexpr (std::is_same_v<To, bool>) {
    return ParseBoolText(s);
  } else if constexpr (kIsInt<To>) {
    return ParseIntegerText<To>(s);
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(double d, ParseFloatText(s, DataTypeOf<To>::value));
    // d already has the precision of To, so this conversion is exact.
    return FromCompute<To>(static_cast<ComputeType<To>>(d));
  }
}

// The types stored as codes rather than as C++ elements: the 8-bit floats, FLOAT4E2M1 and the
// packed sub-byte integers. Casts from or to them go through Element below.
bool IsCodedType(DataType t) { return IsLowPrecisionFloat(t) || IsSubByteInteger(t); }

// One element between two types, in the widest form of its kind: integers exactly, floats as
// double (every float type converts to double exactly), bools.
struct Element {
  enum class Kind { kSigned, kUnsigned, kFloat, kBool };
  Kind kind = Kind::kSigned;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  bool b = false;
};

Element SignedElement(int64_t v) {
  Element e;
  e.kind = Element::Kind::kSigned;
  e.i = v;
  return e;
}
Element UnsignedElement(uint64_t v) {
  Element e;
  e.kind = Element::Kind::kUnsigned;
  e.u = v;
  return e;
}
Element FloatElement(double v) {
  Element e;
  e.kind = Element::Kind::kFloat;
  e.f = v;
  return e;
}
Element BoolElement(bool v) {
  Element e;
  e.kind = Element::Kind::kBool;
  e.b = v;
  return e;
}

template <typename T>
Element ElementOf(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return BoolElement(v);
  } else if constexpr (kIsFloat<T>) {
    return FloatElement(static_cast<double>(ToCompute(v)));
  } else if constexpr (std::is_signed_v<T>) {
    return SignedElement(v);
  } else {
    return UnsignedElement(v);
  }
}

// Element i of `x`, whose type is numeric or bool (not string or complex).
Element ReadElement(const Tensor& x, int64_t i) {
  const DataType t = x.dtype();
  if (IsSubByteInteger(t)) return SignedElement(SubByteIntFromCode(t, x.PackedCode(i)));
  if (t == DataType::kFloat4E2M1) return FloatElement(Float4E2M1{x.PackedCode(i)}.ToFloat());
  if (IsFloat8(t)) {
    return FloatElement(LowPrecisionFloatToFloat(t, static_cast<const uint8_t*>(x.raw_data())[i]));
  }
  Element e;
  Status st = VisitCastTypes(t, [&](auto tag) {
    using T = decltype(tag);
    e = ElementOf(x.data<T>()[i]);
    return OkStatus();
  });
  ONNXGATE_CHECK(st.ok());  // CastTensor admits no other type
  return e;
}

// Text read for the coded type `to`: an integer for the sub-byte integers (as ParseIntegerText),
// a number for the floats (as ParseFloatText, in double).
StatusOr<Element> ParseElement(const std::string& text, DataType to) {
  if (IsSubByteInteger(to)) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t v, ParseIntegerText<int64_t>(text));
    return SignedElement(v);
  }
  ONNXGATE_ASSIGN_OR_RETURN(double d, ParseFloatText(text, DataType::kDouble));
  return FloatElement(d);
}

// |v| as a float rounded "to odd": exact when it fits in 24 bits, otherwise truncated with the
// lowest mantissa bit set when bits were lost, so that rounding it again to a narrower float
// gives the correctly rounded result.
float OddFloatOfMagnitude(uint64_t m) {
  int width = 0;
  while (width < 64 && (m >> width) != 0) ++width;
  constexpr int kFloatDigits = 24;
  if (width <= kFloatDigits) return static_cast<float>(m);
  const int shift = width - kFloatDigits;
  uint64_t top = m >> shift;
  if ((m & ((uint64_t{1} << shift) - 1)) != 0) top |= 1;
  return std::ldexp(static_cast<float>(top), shift);
}

// The element as a float rounded to odd (see OddFloatOfMagnitude and RoundToOddFloat).
float OddFloatOf(const Element& e) {
  switch (e.kind) {
    case Element::Kind::kBool: return e.b ? 1.0f : 0.0f;
    case Element::Kind::kFloat: return RoundToOddFloat(e.f);
    case Element::Kind::kUnsigned: return OddFloatOfMagnitude(e.u);
    case Element::Kind::kSigned: break;
  }
  const uint64_t magnitude =
      e.i < 0 ? uint64_t{0} - static_cast<uint64_t>(e.i) : static_cast<uint64_t>(e.i);
  const float f = OddFloatOfMagnitude(magnitude);
  return e.i < 0 ? -f : f;
}

// The code of the element in the sub-byte integer type `to`: the low bits of its two's
// complement; a float is truncated toward zero first, and NaN and infinities give 0.
uint8_t SubByteIntCodeOf(const Element& e, DataType to) {
  const int bits = DataTypeBits(to);
  uint64_t v = 0;
  switch (e.kind) {
    case Element::Kind::kBool: v = e.b ? 1 : 0; break;
    case Element::Kind::kSigned: v = static_cast<uint64_t>(e.i); break;
    case Element::Kind::kUnsigned: v = e.u; break;
    case Element::Kind::kFloat: {
      if (!std::isfinite(e.f)) return 0;
      const double modulus = static_cast<double>(1 << bits);
      double r = std::fmod(std::trunc(e.f), modulus);  // exact, in (-modulus, modulus)
      if (r < 0) r += modulus;
      v = static_cast<uint64_t>(r);
      break;
    }
  }
  return static_cast<uint8_t>(v & ((uint64_t{1} << bits) - 1));
}

// Stores the element as element i of `y`, whose type is coded.
void WriteCoded(const Element& e, const CastOptions& options, Tensor* y, int64_t i) {
  const DataType to = y->dtype();
  if (IsSubByteInteger(to)) {
    y->SetPackedCode(i, SubByteIntCodeOf(e, to));
    return;
  }
  const float f = OddFloatOf(e);
  if (to == DataType::kFloat4E2M1) {
    y->SetPackedCode(i, Float4E2M1::FromFloat(f).bits);
    return;
  }
  uint8_t& out = static_cast<uint8_t*>(y->mutable_raw_data())[i];
  switch (to) {
    case DataType::kFloat8E4M3FN: out = Float8E4M3FN::FromFloat(f, options.saturate).bits; break;
    case DataType::kFloat8E4M3FNUZ:
      out = Float8E4M3FNUZ::FromFloat(f, options.saturate).bits;
      break;
    case DataType::kFloat8E5M2: out = Float8E5M2::FromFloat(f, options.saturate).bits; break;
    case DataType::kFloat8E5M2FNUZ:
      out = Float8E5M2FNUZ::FromFloat(f, options.saturate).bits;
      break;
    case DataType::kFloat8E8M0:
      out = Float8E8M0::FromFloat(f, options.saturate, options.round_mode).bits;
      break;
    default: ONNXGATE_CHECK(false);  // IsCodedType lists no other type
  }
}

// The element converted to a type of VisitCastTypes, by the rules of ConvertNumber.
template <typename To>
To ConvertElement(const Element& e) {
  switch (e.kind) {
    case Element::Kind::kBool: return ConvertNumber<bool, To>(e.b);
    case Element::Kind::kSigned: return ConvertNumber<int64_t, To>(e.i);
    case Element::Kind::kUnsigned: return ConvertNumber<uint64_t, To>(e.u);
    case Element::Kind::kFloat: break;
  }
  return ConvertNumber<double, To>(e.f);
}

// The element as text: integers in decimal, floats (here the 8-bit and 4-bit floats, all exact
// in float) with the shortest digits that read back as the same float.
std::string ElementToText(const Element& e) {
  switch (e.kind) {
    case Element::Kind::kBool: return IntegerToText(e.b);
    case Element::Kind::kSigned: return IntegerToText(e.i);
    case Element::Kind::kUnsigned: return IntegerToText(e.u);
    case Element::Kind::kFloat: break;
  }
  return FloatToText(e.f, DataType::kFloat);
}

// Cast where `x` or `y` has a coded type, element by element through Element.
Status CastCoded(const Tensor& x, const CastOptions& options, Tensor* y) {
  const int64_t n = x.NumElements();
  const DataType to = y->dtype();
  if (IsCodedType(to)) {
    for (int64_t i = 0; i < n; ++i) {
      if (x.dtype() == DataType::kString) {
        auto e = ParseElement(x.data<std::string>()[i], to);
        if (!e.ok()) {
          return e.status().WithContext("element " + std::to_string(i) + " of the input");
        }
        WriteCoded(*e, options, y, i);
      } else {
        WriteCoded(ReadElement(x, i), options, y, i);
      }
    }
    return OkStatus();
  }
  if (to == DataType::kString) {
    std::string* out = y->mutable_data<std::string>();
    for (int64_t i = 0; i < n; ++i) out[i] = ElementToText(ReadElement(x, i));
    return OkStatus();
  }
  return VisitCastTypes(to, [&](auto to_tag) {
    using To = decltype(to_tag);
    To* out = y->mutable_data<To>();
    for (int64_t i = 0; i < n; ++i) out[i] = ConvertElement<To>(ReadElement(x, i));
    return OkStatus();
  });
}

// The types Cast's output constraint T2 allows at `version`.
std::vector<DataType> CastTargets(int version) {
  using namespace types;  // NOLINT
  List t = Ints() + F3() + List{kBool};
  if (version >= 9) t = t + List{kStr};
  if (version >= 13) t = t + List{kBF16};
  if (version >= 19) t = t + F8();
  if (version >= 21) t = t + List{kU4, kI4};
  if (version >= 23) t = t + List{kF4E2M1};
  if (version >= 24) t = t + List{kF8E8M0};
  if (version >= 25) t = t + List{kU2, kI2};
  return t;
}

// saturate (Cast-19 and CastLike-19 on) and round_mode (Cast-24 and CastLike-24 on).
StatusOr<CastOptions> CastOptionsOf(const KernelInfo& info) {
  CastOptions options;
  if (info.since_version() >= 19) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t saturate, info.GetInt("saturate", 1));
    if (saturate != 0 && saturate != 1) {
      return InvalidArgument("attribute 'saturate' = " + std::to_string(saturate) +
                             " must be 0 or 1");
    }
    options.saturate = saturate == 1;
  }
  if (info.since_version() >= 24) {
    ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("round_mode", "up"));
    if (mode == "up") {
      options.round_mode = E8M0Rounding::kUp;
    } else if (mode == "down") {
      options.round_mode = E8M0Rounding::kDown;
    } else if (mode == "nearest") {
      options.round_mode = E8M0Rounding::kNearest;
    } else {
      return InvalidArgument("attribute 'round_mode' = \"" + mode +
                             "\" is not one of \"up\", \"down\", \"nearest\"");
    }
  }
  return options;
}

}  // namespace

StatusOr<Tensor> CastTensor(const Tensor& x, DataType to, const CastOptions& options) {
  if (IsComplex(x.dtype()) || IsComplex(to)) {
    return Unimplemented(std::string("Cast between ") + DataTypeShortName(x.dtype()) + " and " +
                         DataTypeShortName(to) + " is not defined by ONNX");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(to, x.shape()));
  const int64_t n = x.NumElements();
  if (x.dtype() == DataType::kString && to == DataType::kString) {
    std::copy(x.data<std::string>(), x.data<std::string>() + n, y.mutable_data<std::string>());
    return y;
  }
  if (x.dtype() == to) {
    // The identity, bit for bit (NaN payloads included).
    if (y.ByteSize() > 0) std::memcpy(y.mutable_raw_data(), x.raw_data(), y.ByteSize());
    return y;
  }
  if (IsCodedType(x.dtype()) || IsCodedType(to)) {
    ONNXGATE_RETURN_IF_ERROR(CastCoded(x, options, &y));
    return y;
  }
  if (x.dtype() == DataType::kString) {
    const std::string* in = x.data<std::string>();
    ONNXGATE_RETURN_IF_ERROR(VisitCastTypes(to, [&](auto to_tag) -> Status {
      using To = decltype(to_tag);
      To* out = y.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) {
        auto v = TextToNumber<To>(in[i]);
        if (!v.ok()) {
          return v.status().WithContext("element " + std::to_string(i) + " of the input");
        }
        out[i] = *v;
      }
      return OkStatus();
    }));
    return y;
  }
  ONNXGATE_RETURN_IF_ERROR(VisitCastTypes(x.dtype(), [&](auto from_tag) {
    using From = decltype(from_tag);
    const From* in = x.data<From>();
    if (to == DataType::kString) {
      std::string* out = y.mutable_data<std::string>();
      for (int64_t i = 0; i < n; ++i) out[i] = NumberToText(in[i]);
      return OkStatus();
    }
    return VisitCastTypes(to, [&](auto to_tag) {
      using To = decltype(to_tag);
      To* out = y.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) out[i] = ConvertNumber<From, To>(in[i]);
      return OkStatus();
    });
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> CastKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(CastOptions options, CastOptionsOf(info));
  DataType to = DataType::kUndefined;
  if (info.since_version() < 6) {
    // Cast-1 names the type as a string ("FLOAT").
    ONNXGATE_ASSIGN_OR_RETURN(std::string name, info.GetString("to"));
    auto parsed = DataTypeFromName(name);
    if (!parsed.ok()) {
      return InvalidArgument("attribute 'to' = \"" + name + "\" is not a data type name");
    }
    to = *parsed;
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t code, info.GetInt("to"));
    if (code < 0 || code > INT32_MAX || !IsValidDataType(static_cast<int32_t>(code))) {
      return InvalidArgument("attribute 'to' = " + std::to_string(code) +
                             " is not a TensorProto data type");
    }
    to = static_cast<DataType>(code);
  }
  const std::vector<DataType> allowed = CastTargets(info.since_version());
  if (std::find(allowed.begin(), allowed.end(), to) == allowed.end()) {
    return InvalidArgument(std::string("cannot cast to ") + DataTypeShortName(to) +
                           " in this op version");
  }
  return std::unique_ptr<OpKernel>(new CastKernel(to, options));
}

Status CastKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, CastTensor(*x, to_, options_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> CastLikeKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(CastOptions options, CastOptionsOf(info));
  return std::unique_ptr<OpKernel>(new CastLikeKernel(options));
}

Status CastLikeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* like, GetInput(ctx, 1, "target_type"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, CastTensor(*x, like->dtype(), options_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
