// Concat on oneDNN's concat primitive (see concat.h).
#include "runtime/ep/dnnl/kernels/concat.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::unique_ptr<OpKernel>> ConcatKernel::Create(const KernelInfo& info,
                                                         std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis"));
  return std::unique_ptr<OpKernel>(
      new ConcatKernel(std::move(dnnl), axis, info.since_version() >= 11));
}

Status ConcatKernel::Compute(KernelContext& ctx) const {
  if (ctx.num_inputs() == 0) return InvalidArgument("Concat needs at least one input");
  std::vector<const Tensor*> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, i, "inputs"));
    inputs.push_back(t);
  }
  const Shape& first = inputs[0]->shape();
  const int64_t rank = static_cast<int64_t>(first.rank());
  if (rank == 0) return InvalidArgument("Concat takes tensors of rank 1 or more, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, allow_negative_));
  std::vector<int64_t> out_dims = first.dims();
  out_dims[static_cast<size_t>(axis)] = 0;
  PrimitiveCache<ConcatEntry>::Key key;
  std::vector<const Tensor*> used;  // the inputs with elements
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Shape& s = inputs[i]->shape();
    bool fits = static_cast<int64_t>(s.rank()) == rank;
    for (int64_t d = 0; fits && d < rank; ++d) {
      fits = d == axis || s[static_cast<size_t>(d)] == first[static_cast<size_t>(d)];
    }
    if (!fits) {
      return InvalidArgument("input " + std::to_string(i) + " " + s.ToString() +
                             " does not match input 0 " + first.ToString() + " outside axis " +
                             std::to_string(axis));
    }
    out_dims[static_cast<size_t>(axis)] += s[static_cast<size_t>(axis)];
    if (inputs[i]->NumElements() == 0) continue;
    used.push_back(inputs[i]);
    key.insert(key.end(), s.dims().begin(), s.dims().end());
    key.push_back(-1);
  }
  key.push_back(axis);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewUninitializedTensor(DataType::kFloat, Shape(out_dims)));
  if (y.NumElements() == 0 || used.empty()) {
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  if (rank > DNNL_MAX_NDIMS) {
    return Unimplemented("rank " + std::to_string(rank) + " is more than oneDNN's " +
                         std::to_string(DNNL_MAX_NDIMS) + " dims");
  }
  auto make = [&]() -> StatusOr<std::shared_ptr<const ConcatEntry>> {
    auto entry = std::make_shared<ConcatEntry>();
    for (const Tensor* t : used) entry->sources.push_back(PlainDesc(DimsOf(t->shape().dims())));
    entry->destination = PlainDesc(DimsOf(out_dims));
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "concat", [&]() -> Status {
      entry->pd = dnnl::concat::primitive_desc(entry->destination, static_cast<int>(axis),
                                               entry->sources, dnnl_->engine(), DefaultAttr());
      entry->primitive = dnnl::concat(entry->pd);
      return OkStatus();
    }));
    return std::shared_ptr<const ConcatEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ConcatEntry> entry, cache_.Get(key, make));
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "concat", [&]() -> Status {
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_DST, WrapMemory(*dnnl_, entry->destination, y.mutable_data<float>())}};
    for (size_t i = 0; i < used.size(); ++i) {
      args.emplace(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i),
                   WrapMemory(*dnnl_, entry->sources[i], used[i]->data<float>()));
    }
    ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd, std::move(args));
    return OkStatus();
  }));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
