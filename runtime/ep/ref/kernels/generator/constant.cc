// Constant and ConstantOfShape.
#include "runtime/ep/ref/kernels/generator/constant.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/type_lists.h"

namespace onnxgate::ref {

namespace {

// The element types Constant's T allows at `version`.
std::vector<DataType> ConstantTypes(int version) {
  using namespace types;  // NOLINT
  if (version < 9) return F3();
  return version < 13 ? AllNoBF16() : AllThrough(version);
}

// The element types ConstantOfShape's T2 allows at `version`: numbers and bool, then bfloat16
// and FLOAT8 (20), INT4/UINT4 (21), FLOAT4E2M1 (23), FLOAT8E8M0 (24), INT2/UINT2 (25).
std::vector<DataType> ConstantOfShapeTypes(int version) {
  using namespace types;  // NOLINT
  List t = F3() + Ints() + List{kBool};
  if (version >= 20) t = t + List{kBF16} + F8();
  if (version >= 21) t = t + List{kU4, kI4};
  if (version >= 23) t = t + List{kF4E2M1};
  if (version >= 24) t = t + List{kF8E8M0};
  if (version >= 25) t = t + List{kU2, kI2};
  return t;
}

}  // namespace

StatusOr<Tensor> ConstantFromAttributes(const KernelInfo& info) {
  const int version = info.since_version();
  const char* const kForms[] = {"value",     "sparse_value", "value_float",  "value_floats",
                                "value_int", "value_ints",   "value_string", "value_strings"};
  std::vector<std::string> present;
  for (const char* name : kForms) {
    if (info.has_attribute(name)) present.push_back(name);
  }
  if (present.size() != 1) {
    std::string names;
    for (const auto& n : present) names += (names.empty() ? "" : ", ") + n;
    return InvalidArgument("exactly one value attribute must be set, got " +
                           (present.empty() ? "none" : names));
  }
  const std::string& form = present[0];
  if ((form == "sparse_value" && version < 11) ||
      (form != "value" && form != "sparse_value" && version < 12)) {
    return InvalidArgument("attribute '" + form + "' does not exist in this op version");
  }
  Tensor t;
  if (form == "value") {
    ONNXGATE_ASSIGN_OR_RETURN(t, info.GetTensor("value"));
  } else if (form == "sparse_value") {
    return Unimplemented("sparse_value is not supported by the ref EP");
  } else if (form == "value_float") {
    ONNXGATE_ASSIGN_OR_RETURN(float v, info.GetFloat(form));
    t = Tensor::Scalar<float>(v);
  } else if (form == "value_floats") {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<float> v, info.GetFloats(form));
    t = Tensor::FromVector<float>(Shape({static_cast<int64_t>(v.size())}), v);
  } else if (form == "value_int") {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t v, info.GetInt(form));
    t = Tensor::Scalar<int64_t>(v);
  } else if (form == "value_ints") {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> v, info.GetInts(form));
    t = Tensor::FromVector<int64_t>(Shape({static_cast<int64_t>(v.size())}), v);
  } else if (form == "value_string") {
    ONNXGATE_ASSIGN_OR_RETURN(std::string v, info.GetString(form));
    t = Tensor::Scalar<std::string>(v);
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> v, info.GetStrings(form));
    t = Tensor::FromVector<std::string>(Shape({static_cast<int64_t>(v.size())}), v);
  }
  const std::vector<DataType> allowed = ConstantTypes(version);
  if (std::find(allowed.begin(), allowed.end(), t.dtype()) == allowed.end()) {
    return InvalidArgument(std::string("a constant of type ") + DataTypeShortName(t.dtype()) +
                           " is not allowed in this op version");
  }
  return t;
}

StatusOr<std::unique_ptr<OpKernel>> ConstantKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor value, ConstantFromAttributes(info));
  return std::unique_ptr<OpKernel>(new ConstantKernel(std::move(value)));
}

Status ConstantKernel::Compute(KernelContext& ctx) const {
  // The tensor is immutable, so every run hands out the same storage.
  ctx.set_output(0, value_);
  return OkStatus();
}

StatusOr<Tensor> ConstantOfShape(const Tensor& shape, const Tensor& value) {
  if (shape.dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("'input' must be int64, got ") +
                           DataTypeShortName(shape.dtype()));
  }
  if (value.NumElements() != 1) {
    return InvalidArgument("'value' must hold one element, got shape " + value.shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ToInt64List(shape, "input"));
  for (int64_t d : dims) {
    if (d < 0) return InvalidArgument("shape " + ListToString(dims) + " has a negative dim");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(value.dtype(), Shape(dims)));
  if (IsPackedSubByte(value.dtype())) {
    const uint8_t code = value.PackedCode(0);
    for (int64_t i = 0, n = y.NumElements(); i < n; ++i) y.SetPackedCode(i, code);
    return y;
  }
  if (IsFloat8(value.dtype())) {
    // One byte per element: the value's code repeated.
    const uint8_t code = static_cast<const uint8_t*>(value.raw_data())[0];
    std::memset(y.mutable_raw_data(), code, y.ByteSize());
    return y;
  }
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(value.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::fill(y.mutable_data<T>(), y.mutable_data<T>() + y.NumElements(), value.data<T>()[0]);
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> ConstantOfShapeKernel::Create(const KernelInfo& info) {
  Tensor value = Tensor::Scalar<float>(0.0f);
  if (info.has_attribute("value")) {
    ONNXGATE_ASSIGN_OR_RETURN(value, info.GetTensor("value"));
  }
  const std::vector<DataType> allowed = ConstantOfShapeTypes(info.since_version());
  if (std::find(allowed.begin(), allowed.end(), value.dtype()) == allowed.end()) {
    return InvalidArgument(std::string("'value' of type ") + DataTypeShortName(value.dtype()) +
                           " is not allowed in this op version");
  }
  if (value.NumElements() != 1) {
    return InvalidArgument("'value' must hold one element, got shape " + value.shape().ToString());
  }
  return std::unique_ptr<OpKernel>(new ConstantOfShapeKernel(std::move(value)));
}

Status ConstantOfShapeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* shape, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ConstantOfShape(*shape, value_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
