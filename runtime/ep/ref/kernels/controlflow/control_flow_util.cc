// Helpers shared by If, Loop and Scan.
#include "runtime/ep/ref/kernels/controlflow/control_flow_util.h"

#include <onnx/onnx_pb.h>

#include "runtime/ep/ref/kernels/tensor/concat_split.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

namespace {

class EmptyScope : public Scope {
 public:
  const Value* Lookup(const std::string&) const override { return nullptr; }
};

}  // namespace

const Scope& OuterScopeOf(const KernelContext& ctx) {
  static const EmptyScope* const kEmpty = new EmptyScope();
  return ctx.scope() != nullptr ? *ctx.scope() : *kEmpty;
}

StatusOr<bool> ReadBoolScalar(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kBool || t.NumElements() != 1) {
    return InvalidArgument(std::string("'") + name +
                           "' must be a bool tensor of one element, got " +
                           DataTypeShortName(t.dtype()) + t.shape().ToString());
  }
  return t.data<bool>()[0];
}

StatusOr<int64_t> ReadInt64Scalar(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kInt64 || t.NumElements() != 1) {
    return InvalidArgument(std::string("'") + name +
                           "' must be an int64 tensor of one element, got " +
                           DataTypeShortName(t.dtype()) + t.shape().ToString());
  }
  return t.data<int64_t>()[0];
}

std::vector<DeclaredType> DeclaredOutputTypes(const KernelInfo& info, const std::string& attr) {
  std::vector<DeclaredType> types;
  const onnx::AttributeProto* a = info.attribute(attr);
  if (a == nullptr || !a->has_g()) return types;
  for (const onnx::ValueInfoProto& out : a->g().output()) {
    DeclaredType d;
    if (out.type().has_tensor_type()) {
      const onnx::TypeProto::Tensor& tt = out.type().tensor_type();
      if (IsValidDataType(tt.elem_type())) d.elem_type = static_cast<DataType>(tt.elem_type());
      if (tt.has_shape()) {
        std::vector<int64_t> dims;
        for (const auto& dim : tt.shape().dim()) {
          dims.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
        }
        d.dims = std::move(dims);
      }
    }
    types.push_back(std::move(d));
  }
  return types;
}

StatusOr<Tensor> EmptyStack(const DeclaredType& type, int64_t axis, const std::string& what) {
  if (type.elem_type == DataType::kUndefined) {
    return InvalidArgument(what +
                           " has no iteration to take its type from and the body does "
                           "not declare its element type");
  }
  if (!type.dims) return NewTensor(type.elem_type, Shape({0}));
  std::vector<int64_t> dims = *type.dims;
  for (int64_t& d : dims) d = d < 0 ? 0 : d;
  if (axis < 0 || axis > static_cast<int64_t>(dims.size())) {
    return InvalidArgument(what + ": axis " + std::to_string(axis) +
                           " is outside the declared rank " + std::to_string(dims.size()));
  }
  dims.insert(dims.begin() + axis, 0);
  return NewTensor(type.elem_type, Shape(dims));
}

StatusOr<Tensor> Stack(const std::vector<Tensor>& items, int64_t axis) {
  return ConcatSequence(items, axis, /*new_axis=*/true);
}

StatusOr<std::vector<Tensor>> Unstack(const Tensor& x, int64_t axis) {
  const int64_t count = x.shape()[axis];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Tensor> parts,
                            Split(x, axis, std::vector<int64_t>(static_cast<size_t>(count), 1)));
  std::vector<int64_t> dims = x.shape().dims();
  dims.erase(dims.begin() + axis);
  for (Tensor& p : parts) p = p.Reshaped(Shape(dims));
  return parts;
}

}  // namespace onnxgate::ref
