// Sequence ops.
#include "runtime/ep/ref/kernels/sequence/sequence.h"

#include <algorithm>
#include <string>

#include "runtime/ep/ref/kernels/tensor/concat_split.h"

namespace onnxgate::ref {

namespace {

// The sequence of input `index`; InvalidArgument when it is omitted or not a sequence.
StatusOr<const Value*> GetSequence(const KernelContext& ctx, size_t index, const char* name) {
  const Value* v = ctx.input(index);
  if (v == nullptr) {
    return InvalidArgument("input " + std::to_string(index) + " ('" + name + "') is missing");
  }
  if (!v->is_sequence()) {
    return InvalidArgument("input " + std::to_string(index) + " ('" + name +
                           "') must be a sequence, got " + v->TypeString());
  }
  return v;
}

// Reads the scalar `position` input (int32 or int64) and maps it into [0, size) — or [0, size]
// when `allow_end`, for insertion. Negative positions count from the back.
StatusOr<int64_t> ReadPosition(const Tensor& t, int64_t size, bool allow_end) {
  if (t.NumElements() != 1 || t.shape().rank() > 1) {
    return InvalidArgument("'position' must be a scalar, got shape " + t.shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> values, ToInt64s(t, "position"));
  const int64_t upper = allow_end ? size : size - 1;
  const int64_t pos = values[0];
  if (pos < -size || pos > upper) {
    return InvalidArgument("position " + std::to_string(pos) + " is outside [" +
                           std::to_string(-size) + ", " + std::to_string(upper) +
                           "] for a sequence of " + std::to_string(size) + " tensors");
  }
  return pos < 0 ? pos + size : pos;
}

// The tensor of input `index` with the element type `elem_type` of the sequence it joins.
StatusOr<const Tensor*> GetItem(const KernelContext& ctx, size_t index, const char* name,
                                DataType elem_type) {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  if (t->dtype() != elem_type) {
    return InvalidArgument(std::string("'") + name + "' has type " + DataTypeShortName(t->dtype()) +
                           " but the sequence holds " + DataTypeShortName(elem_type));
  }
  return t;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> SequenceEmptyKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t dtype,
                            info.GetInt("dtype", static_cast<int64_t>(DataType::kFloat)));
  if (dtype < 0 || dtype > INT32_MAX || !IsValidDataType(static_cast<int32_t>(dtype)) ||
      dtype == static_cast<int64_t>(DataType::kUndefined)) {
    return InvalidArgument("'dtype' " + std::to_string(dtype) +
                           " is not an ONNX tensor element type");
  }
  return std::unique_ptr<OpKernel>(
      new SequenceEmptyKernel(static_cast<DataType>(static_cast<int32_t>(dtype))));
}

Status SequenceEmptyKernel::Compute(KernelContext& ctx) const {
  ctx.set_output(0, Value::FromSequence(dtype_, {}));
  return OkStatus();
}

Status SequenceConstructKernel::Compute(KernelContext& ctx) const {
  if (ctx.num_inputs() == 0) return InvalidArgument("needs at least one input");
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* first, GetInput(ctx, 0, "inputs"));
  std::vector<Tensor> items;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetItem(ctx, i, "inputs", first->dtype()));
    items.push_back(*t);
  }
  ctx.set_output(0, Value::FromSequence(first->dtype(), std::move(items)));
  return OkStatus();
}

Status SequenceInsertKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Value* seq, GetSequence(ctx, 0, "input_sequence"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetItem(ctx, 1, "tensor", seq->elem_type()));
  std::vector<Tensor> items = seq->sequence();
  const int64_t size = static_cast<int64_t>(items.size());
  int64_t pos = size;  // appends when no position is given
  if (ctx.has_input(2)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* p, GetInput(ctx, 2, "position"));
    ONNXGATE_ASSIGN_OR_RETURN(pos, ReadPosition(*p, size, /*allow_end=*/true));
  }
  items.insert(items.begin() + pos, *t);
  ctx.set_output(0, Value::FromSequence(seq->elem_type(), std::move(items)));
  return OkStatus();
}

Status SequenceAtKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Value* seq, GetSequence(ctx, 0, "input_sequence"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* p, GetInput(ctx, 1, "position"));
  const int64_t size = static_cast<int64_t>(seq->sequence().size());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t pos, ReadPosition(*p, size, /*allow_end=*/false));
  ctx.set_output(0, seq->sequence()[static_cast<size_t>(pos)]);
  return OkStatus();
}

Status SequenceEraseKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Value* seq, GetSequence(ctx, 0, "input_sequence"));
  std::vector<Tensor> items = seq->sequence();
  const int64_t size = static_cast<int64_t>(items.size());
  if (size == 0) return InvalidArgument("cannot erase from an empty sequence");
  int64_t pos = size - 1;  // erases the last tensor when no position is given
  if (ctx.has_input(1)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* p, GetInput(ctx, 1, "position"));
    ONNXGATE_ASSIGN_OR_RETURN(pos, ReadPosition(*p, size, /*allow_end=*/false));
  }
  items.erase(items.begin() + pos);
  ctx.set_output(0, Value::FromSequence(seq->elem_type(), std::move(items)));
  return OkStatus();
}

Status SequenceLengthKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Value* seq, GetSequence(ctx, 0, "input_sequence"));
  ctx.set_output(0, Tensor::Scalar<int64_t>(static_cast<int64_t>(seq->sequence().size())));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> SplitToSequenceKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t keepdims, info.GetInt("keepdims", 1));
  return std::unique_ptr<OpKernel>(new SplitToSequenceKernel(axis, keepdims != 0));
}

Status SplitToSequenceKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  const int64_t rank = static_cast<int64_t>(x->shape().rank());
  if (rank == 0) return InvalidArgument("cannot split a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  const int64_t dim = x->shape()[axis];
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (!ctx.has_input(1)) {
    // keepdims only applies here: each piece has size 1 along the axis, which it may drop.
    sizes.assign(static_cast<size_t>(dim), 1);
    squeeze = !keepdims_;
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* split, GetInput(ctx, 1, "split"));
    if (split->shape().rank() == 0) {
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> v, ToInt64s(*split, "split"));
      if (v[0] <= 0) {
        return InvalidArgument("scalar 'split' must be positive, got " + std::to_string(v[0]));
      }
      for (int64_t left = dim; left > 0; left -= v[0]) sizes.push_back(std::min(left, v[0]));
    } else {
      ONNXGATE_ASSIGN_OR_RETURN(sizes, ToInt64List(*split, "split"));
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Tensor> pieces, Split(*x, axis, sizes));
  if (squeeze) {
    std::vector<int64_t> dims = x->shape().dims();
    dims.erase(dims.begin() + axis);
    for (Tensor& p : pieces) p = p.Reshaped(Shape(dims));
  }
  ctx.set_output(0, Value::FromSequence(x->dtype(), std::move(pieces)));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ConcatFromSequenceKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t new_axis, info.GetInt("new_axis", 0));
  if (new_axis != 0 && new_axis != 1) {
    return InvalidArgument("'new_axis' must be 0 or 1, got " + std::to_string(new_axis));
  }
  return std::unique_ptr<OpKernel>(new ConcatFromSequenceKernel(axis, new_axis == 1));
}

Status ConcatFromSequenceKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Value* seq, GetSequence(ctx, 0, "input_sequence"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ConcatSequence(seq->sequence(), axis_, new_axis_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
