// Optional ops.
#include "runtime/ep/ref/kernels/optional/optional.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace onnxgate::ref {

namespace {

// The tensor element type a TypeProto names; Unimplemented for what a Value cannot hold.
StatusOr<DataType> TensorElemType(const onnx::TypeProto& tp, const std::string& where) {
  if (!tp.has_tensor_type()) {
    return Unimplemented(where + " must be a tensor or a sequence of tensors");
  }
  const int32_t t = tp.tensor_type().elem_type();
  if (!IsValidDataType(t) || t == static_cast<int32_t>(DataType::kUndefined)) {
    return InvalidArgument(where + " has the unknown element type " + std::to_string(t));
  }
  return static_cast<DataType>(t);
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> OptionalKernel::Create(const KernelInfo& info) {
  Value::Kind kind = Value::Kind::kNone;
  DataType elem_type = DataType::kUndefined;
  const onnx::AttributeProto* type = info.attribute("type");
  if (type != nullptr) {
    if (type->type() != onnx::AttributeProto::TYPE_PROTO) {
      return InvalidArgument("attribute 'type' must be TYPE_PROTO, got " +
                             onnx::AttributeProto::AttributeType_Name(type->type()));
    }
    const onnx::TypeProto& tp = type->tp();
    const std::string where = "attribute 'type'";
    if (tp.has_sequence_type()) {
      kind = Value::Kind::kSequence;
      ONNXGATE_ASSIGN_OR_RETURN(elem_type, TensorElemType(tp.sequence_type().elem_type(), where));
    } else {
      kind = Value::Kind::kTensor;
      ONNXGATE_ASSIGN_OR_RETURN(elem_type, TensorElemType(tp, where));
    }
  } else if (!info.has_input(0)) {
    return InvalidArgument(
        "without an input the 'type' attribute must say what the empty "
        "optional would hold");
  }
  return std::unique_ptr<OpKernel>(new OptionalKernel(kind, elem_type));
}

Status OptionalKernel::Compute(KernelContext& ctx) const {
  const Value* v = ctx.input(0);
  if (v == nullptr) {
    if (kind_ == Value::Kind::kNone)
      return InvalidArgument("input 'input' is missing and no 'type' is given");
    ctx.set_output(0, Value::OptionalNone(kind_, elem_type_));
    return OkStatus();
  }
  if (!v->is_tensor() && !v->is_sequence()) {
    return InvalidArgument("input must be a tensor or a sequence, got " + v->TypeString());
  }
  if (kind_ != Value::Kind::kNone && (v->kind() != kind_ || v->elem_type() != elem_type_)) {
    return InvalidArgument("input of type " + v->TypeString() +
                           " does not match the 'type' attribute");
  }
  ctx.set_output(0, Value::OptionalOf(*v));
  return OkStatus();
}

Status OptionalHasElementKernel::Compute(KernelContext& ctx) const {
  const Value* v = ctx.input(0);
  bool present = false;
  if (v != nullptr) {
    if (v->kind() == Value::Kind::kNone) return InvalidArgument("input holds no value");
    present = v->is_optional() ? v->has_value() : true;
  }
  ctx.set_output(0, Tensor::Scalar<bool>(present));
  return OkStatus();
}

Status OptionalGetElementKernel::Compute(KernelContext& ctx) const {
  const Value* v = ctx.input(0);
  if (v == nullptr || v->kind() == Value::Kind::kNone) {
    return InvalidArgument("input 0 ('input') is missing");
  }
  if (!v->is_optional()) {
    ctx.set_output(0, *v);
    return OkStatus();
  }
  if (!v->has_value()) {
    return InvalidArgument("the optional input of type " + v->TypeString() + " is empty");
  }
  ctx.set_output(0, v->optional_value());
  return OkStatus();
}

}  // namespace onnxgate::ref
