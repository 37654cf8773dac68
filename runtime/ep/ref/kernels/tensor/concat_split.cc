// Concat and Split.
#include "runtime/ep/ref/kernels/tensor/concat_split.h"

#include <algorithm>

#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

namespace {

// Elements of one slab below `axis`: the product of dims after it.
int64_t InnerSize(const Shape& s, int64_t axis) {
  int64_t n = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < s.rank(); ++d) n *= s[d];
  return n;
}

int64_t OuterSize(const Shape& s, int64_t axis) {
  int64_t n = 1;
  for (int64_t d = 0; d < axis; ++d) n *= s[d];
  return n;
}

}  // namespace

StatusOr<Tensor> Concat(const std::vector<const Tensor*>& inputs, int64_t axis) {
  if (inputs.empty()) return InvalidArgument("needs at least one input");
  const Shape& first = inputs[0]->shape();
  if (first.rank() == 0) return InvalidArgument("cannot concatenate scalars");
  std::vector<int64_t> out_dims = first.dims();
  out_dims[axis] = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Shape& s = inputs[k]->shape();
    if (inputs[k]->dtype() != inputs[0]->dtype()) {
      return InvalidArgument("input " + std::to_string(k) + " has type " +
                             DataTypeShortName(inputs[k]->dtype()) + " but input 0 has " +
                             DataTypeShortName(inputs[0]->dtype()));
    }
    bool compatible = s.rank() == first.rank();
    for (size_t d = 0; compatible && d < s.rank(); ++d) {
      compatible = static_cast<int64_t>(d) == axis || s[d] == first[d];
    }
    if (!compatible) {
      return InvalidArgument("input " + std::to_string(k) + " of shape " + s.ToString() +
                             " does not match input 0 of shape " + first.ToString() +
                             " outside axis " + std::to_string(axis));
    }
    out_dims[axis] += s[axis];
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(inputs[0]->dtype(), Shape(out_dims)));
  const int64_t outer = OuterSize(first, axis);
  const int64_t inner = InnerSize(first, axis);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor* t : inputs) {
      const int64_t block = t->shape()[axis] * inner;
      CopyElements(*t, o * block, &y, at, block);
      at += block;
    }
  }
  return y;
}

StatusOr<std::vector<Tensor>> Split(const Tensor& x, int64_t axis,
                                    const std::vector<int64_t>& sizes) {
  const Shape& s = x.shape();
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0) return InvalidArgument("split " + ListToString(sizes) + " has a negative size");
    total += size;
  }
  if (total != s[axis]) {
    return InvalidArgument("split " + ListToString(sizes) + " sums to " + std::to_string(total) +
                           " but dim " + std::to_string(axis) + " of " + s.ToString() + " is " +
                           std::to_string(s[axis]));
  }
  const int64_t outer = OuterSize(s, axis);
  const int64_t inner = InnerSize(s, axis);
  std::vector<Tensor> parts;
  int64_t offset = 0;  // along the axis
  for (int64_t size : sizes) {
    std::vector<int64_t> dims = s.dims();
    dims[axis] = size;
    ONNXGATE_ASSIGN_OR_RETURN(Tensor part, NewTensor(x.dtype(), Shape(dims)));
    for (int64_t o = 0; o < outer; ++o) {
      CopyElements(x, (o * s[axis] + offset) * inner, &part, o * size * inner, size * inner);
    }
    offset += size;
    parts.push_back(std::move(part));
  }
  return parts;
}

StatusOr<std::unique_ptr<OpKernel>> ConcatKernel::Create(const KernelInfo& info) {
  // Concat-1 defaults the axis to 1; from Concat-4 it is required.
  std::optional<int64_t> default_axis;
  if (info.since_version() < 4) default_axis = 1;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", default_axis));
  return std::unique_ptr<OpKernel>(new ConcatKernel(axis, info.since_version() >= 11));
}

Status ConcatKernel::Compute(KernelContext& ctx) const {
  std::vector<const Tensor*> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, i, "inputs"));
    inputs.push_back(t);
  }
  if (inputs.empty()) return InvalidArgument("needs at least one input");
  const int64_t rank = static_cast<int64_t>(inputs[0]->shape().rank());
  if (rank == 0) return InvalidArgument("cannot concatenate scalars");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, allow_negative_));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Concat(inputs, axis));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> SplitKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 0));
  std::optional<std::vector<int64_t>> split;
  if (info.since_version() < 13 && info.has_attribute("split")) {
    ONNXGATE_ASSIGN_OR_RETURN(split, info.GetInts("split"));
  }
  std::optional<int64_t> num_outputs;
  if (info.since_version() >= 18 && info.has_attribute("num_outputs")) {
    ONNXGATE_ASSIGN_OR_RETURN(num_outputs, info.GetInt("num_outputs"));
    if (*num_outputs < 1) {
      return InvalidArgument("attribute 'num_outputs' must be at least 1, got " +
                             std::to_string(*num_outputs));
    }
    if (static_cast<size_t>(*num_outputs) != info.num_outputs()) {
      return InvalidArgument("attribute 'num_outputs' is " + std::to_string(*num_outputs) +
                             " but the node has " + std::to_string(info.num_outputs()) +
                             " outputs");
    }
  }
  return std::unique_ptr<OpKernel>(
      new SplitKernel(info.since_version(), axis, std::move(split), num_outputs));
}

Status SplitKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  const int64_t rank = static_cast<int64_t>(x->shape().rank());
  if (rank == 0) return InvalidArgument("cannot split a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, version_ >= 11));
  std::optional<std::vector<int64_t>> sizes = split_attr_;
  // Split-1 takes the sizes as attribute or input; Split-13 only as input.
  if ((version_ == 1 || version_ >= 13) && ctx.has_input(1)) {
    if (sizes) return InvalidArgument("'split' is given both as attribute and as input");
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "split"));
    ONNXGATE_ASSIGN_OR_RETURN(sizes, ToInt64List(*t, "split"));
  }
  if (version_ >= 18) {
    if (sizes && num_outputs_) {
      return InvalidArgument("the 'split' input and the 'num_outputs' attribute are both given");
    }
    if (!sizes && !num_outputs_) {
      return InvalidArgument("needs either the 'split' input or the 'num_outputs' attribute");
    }
    if (num_outputs_) {
      // Parts of ceil(dim / n); the last one takes the rest, which must not be negative.
      const int64_t n = *num_outputs_;
      const int64_t dim = x->shape()[axis];
      const int64_t chunk = (dim + n - 1) / n;
      const int64_t last = dim - chunk * (n - 1);
      if (last < 0) {
        return InvalidArgument("dim " + std::to_string(axis) + " of size " + std::to_string(dim) +
                               " cannot be cut into " + std::to_string(n) + " parts of " +
                               std::to_string(chunk) + " with a smaller last part");
      }
      sizes = std::vector<int64_t>(static_cast<size_t>(n), chunk);
      sizes->back() = last;
    }
  }
  const int64_t parts = static_cast<int64_t>(ctx.num_outputs());
  if (sizes && static_cast<int64_t>(sizes->size()) != parts) {
    return InvalidArgument("split " + ListToString(*sizes) + " has " +
                           std::to_string(sizes->size()) + " sizes for " + std::to_string(parts) +
                           " outputs");
  }
  if (!sizes) {
    const int64_t dim = x->shape()[axis];
    if (parts == 0 || dim % parts != 0) {
      return InvalidArgument("dim " + std::to_string(axis) + " of size " + std::to_string(dim) +
                             " cannot be split into " + std::to_string(parts) + " equal parts");
    }
    sizes = std::vector<int64_t>(static_cast<size_t>(parts), dim / parts);
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, Split(*x, axis, *sizes));
  for (size_t i = 0; i < outputs.size(); ++i) ctx.set_output(i, std::move(outputs[i]));
  return OkStatus();
}

StatusOr<Tensor> ConcatSequence(const std::vector<Tensor>& items, int64_t axis, bool new_axis) {
  if (items.empty()) return InvalidArgument("cannot concatenate an empty sequence");
  const int64_t rank = static_cast<int64_t>(items[0].shape().rank());
  if (!new_axis) {
    if (rank == 0) return InvalidArgument("cannot concatenate scalars without new_axis");
    ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis, rank, /*allow_negative=*/true));
    std::vector<const Tensor*> ptrs;
    for (const Tensor& t : items) ptrs.push_back(&t);
    return Concat(ptrs, a);
  }
  // Stacking is concatenation of the items, each seen with a dim of 1 inserted at the axis.
  ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis, rank + 1, /*allow_negative=*/true));
  std::vector<Tensor> expanded;
  for (size_t k = 0; k < items.size(); ++k) {
    const Shape& s = items[k].shape();
    if (s != items[0].shape()) {
      return InvalidArgument("tensor " + std::to_string(k) + " of shape " + s.ToString() +
                             " cannot be stacked with tensor 0 of shape " +
                             items[0].shape().ToString());
    }
    std::vector<int64_t> dims = s.dims();
    dims.insert(dims.begin() + a, 1);
    expanded.push_back(items[k].Reshaped(Shape(dims)));
  }
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : expanded) ptrs.push_back(&t);
  return Concat(ptrs, a);
}

}  // namespace onnxgate::ref
