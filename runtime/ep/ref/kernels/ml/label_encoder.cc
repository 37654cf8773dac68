// LabelEncoder.
#include "runtime/ep/ref/kernels/ml/label_encoder.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace onnxgate::ref {

namespace {

// The element types keys and values may have: T1 and T2 of the version.
bool IsMappableType(DataType t, int since_version) {
  if (t == DataType::kString || t == DataType::kInt64 || t == DataType::kFloat) return true;
  return since_version >= 4 &&
         (t == DataType::kInt32 || t == DataType::kInt16 || t == DataType::kDouble);
}

// The one attribute set among '<prefix>floats', '<prefix>int64s', '<prefix>strings' and (from
// version 4) '<prefix>tensor', as a 1-D tensor.
StatusOr<Tensor> ReadList(const KernelInfo& info, const std::string& prefix) {
  std::vector<std::string> names = {prefix + "floats", prefix + "int64s", prefix + "strings"};
  if (info.since_version() >= 4) names.push_back(prefix + "tensor");
  std::vector<std::string> set;
  for (const std::string& name : names) {
    if (info.has_attribute(name)) set.push_back(name);
  }
  if (set.size() != 1) {
    std::string listed;
    for (const std::string& name : names) listed += (listed.empty() ? "'" : ", '") + name + "'";
    return InvalidArgument("exactly one of " + listed + " must be set, got " +
                           std::to_string(set.size()));
  }
  const std::string& name = set[0];
  Tensor t;
  if (name == prefix + "floats") {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<float> v, info.GetFloats(name));
    t = Tensor::FromVector<float>(Shape{static_cast<int64_t>(v.size())}, v);
  } else if (name == prefix + "int64s") {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> v, info.GetInts(name));
    t = Tensor::FromVector<int64_t>(Shape{static_cast<int64_t>(v.size())}, v);
  } else if (name == prefix + "strings") {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> v, info.GetStrings(name));
    t = Tensor::FromVector<std::string>(Shape{static_cast<int64_t>(v.size())}, v);
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(t, info.GetTensor(name));
    if (t.shape().rank() != 1) {
      return InvalidArgument("'" + name + "' must be a 1-D tensor, got shape " +
                             t.shape().ToString());
    }
  }
  if (!IsMappableType(t.dtype(), info.since_version())) {
    return InvalidArgument("'" + name + "' of type " + DataTypeShortName(t.dtype()) +
                           " is not allowed");
  }
  return t;
}

// The default of the values' type: 'default_tensor' with values_tensor (from version 4), else
// 'default_float', 'default_int64' or 'default_string', with the schema's defaults -0.0, -1 and
// "_Unused".
StatusOr<Tensor> ReadDefault(const KernelInfo& info, const Tensor& values) {
  const DataType t = values.dtype();
  if (info.has_attribute("values_tensor")) {
    if (info.has_attribute("default_tensor")) {
      ONNXGATE_ASSIGN_OR_RETURN(Tensor d, info.GetTensor("default_tensor"));
      if (d.dtype() != t || d.NumElements() != 1) {
        return InvalidArgument(std::string("'default_tensor' must hold one ") +
                               DataTypeShortName(t) + " like 'values_tensor', got " +
                               DataTypeShortName(d.dtype()) + d.shape().ToString());
      }
      return d.Reshaped(Shape{});
    }
    switch (t) {
      case DataType::kString: return Tensor::Scalar<std::string>("_Unused");
      case DataType::kInt64: return Tensor::Scalar<int64_t>(-1);
      case DataType::kInt32: return Tensor::Scalar<int32_t>(-1);
      case DataType::kInt16: return Tensor::Scalar<int16_t>(-1);
      case DataType::kFloat: return Tensor::Scalar<float>(-0.0f);
      default: return Tensor::Scalar<double>(-0.0);
    }
  }
  switch (t) {
    case DataType::kString: {
      ONNXGATE_ASSIGN_OR_RETURN(std::string d, info.GetString("default_string", "_Unused"));
      return Tensor::Scalar<std::string>(d);
    }
    case DataType::kInt64: {
      ONNXGATE_ASSIGN_OR_RETURN(int64_t d, info.GetInt("default_int64", -1));
      return Tensor::Scalar<int64_t>(d);
    }
    default: {
      ONNXGATE_ASSIGN_OR_RETURN(float d, info.GetFloat("default_float", -0.0f));
      return Tensor::Scalar<float>(d);
    }
  }
}

uint64_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> LabelEncoderKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor keys, ReadList(info, "keys_"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor values, ReadList(info, "values_"));
  if (keys.NumElements() != values.NumElements()) {
    return InvalidArgument("the keys have " + std::to_string(keys.NumElements()) +
                           " elements but the values " + std::to_string(values.NumElements()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor default_value, ReadDefault(info, values));
  const bool bitwise = info.since_version() < 4;
  Lookup lookup;
  lookup.key_type = keys.dtype();
  // A repeated key maps to its last value.
  for (int64_t i = 0; i < keys.NumElements(); ++i) {
    switch (keys.dtype()) {
      case DataType::kString: lookup.strings[keys.data<std::string>()[i]] = i; break;
      case DataType::kInt64: lookup.integers[keys.data<int64_t>()[i]] = i; break;
      case DataType::kInt32: lookup.integers[keys.data<int32_t>()[i]] = i; break;
      case DataType::kInt16: lookup.integers[keys.data<int16_t>()[i]] = i; break;
      default: {
        const double k = keys.ElementAsDouble(i);
        if (bitwise) {
          lookup.float_bits[FloatBits(keys.data<float>()[i])] = i;
        } else if (std::isnan(k)) {
          lookup.nan = i;
        } else {
          lookup.floats[k] = i;
        }
      }
    }
  }
  return std::unique_ptr<OpKernel>(new LabelEncoderKernel(
      bitwise, std::move(lookup), std::move(values), std::move(default_value)));
}

int64_t LabelEncoderKernel::Find(const Tensor& x, int64_t i) const {
  auto find = [](const auto& map, const auto& key) -> int64_t {
    auto it = map.find(key);
    return it == map.end() ? -1 : it->second;
  };
  switch (x.dtype()) {
    case DataType::kString: return find(lookup_.strings, x.data<std::string>()[i]);
    case DataType::kInt64: return find(lookup_.integers, x.data<int64_t>()[i]);
    case DataType::kInt32: return find(lookup_.integers, int64_t{x.data<int32_t>()[i]});
    case DataType::kInt16: return find(lookup_.integers, int64_t{x.data<int16_t>()[i]});
    default: {
      if (bitwise_floats_) return find(lookup_.float_bits, FloatBits(x.data<float>()[i]));
      const double v = x.ElementAsDouble(i);
      if (std::isnan(v)) return lookup_.nan.value_or(-1);
      return find(lookup_.floats, v);
    }
  }
}

Status LabelEncoderKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  if (x->dtype() != lookup_.key_type) {
    return InvalidArgument(std::string("X of type ") + DataTypeShortName(x->dtype()) +
                           " does not match the keys' type " + DataTypeShortName(lookup_.key_type));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(values_.dtype(), x->shape()));
  Status st = VisitAllTypes(values_.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* values = values_.data<T>();
    const T& fallback = default_.data<T>()[0];
    T* out = y.mutable_data<T>();
    for (int64_t i = 0; i < x->NumElements(); ++i) {
      const int64_t k = Find(*x, i);
      out[i] = k >= 0 ? values[k] : fallback;
    }
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
