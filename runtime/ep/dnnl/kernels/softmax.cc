// Softmax-13 and LogSoftmax-13 on oneDNN's softmax and logsoftmax primitives.
#include "runtime/ep/dnnl/kernels/softmax.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::unique_ptr<OpKernel>> SoftmaxKernel::Create(const KernelInfo& info, bool log,
                                                          std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  return std::unique_ptr<OpKernel>(new SoftmaxKernel(std::move(dnnl), log, axis));
}

Status SoftmaxKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  const Shape& shape = x->shape();
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, static_cast<int64_t>(shape.rank()),
                                                          /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewUninitializedTensor(DataType::kFloat, shape));
  if (y.NumElements() == 0) {
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  // The tensor as [outer, axis, inner]: any rank takes one 3-D primitive.
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= shape[static_cast<size_t>(i)];
  for (size_t i = static_cast<size_t>(axis) + 1; i < shape.rank(); ++i) inner *= shape[i];
  const int64_t dim = shape[static_cast<size_t>(axis)];
  const char* primitive_name = log_ ? "logsoftmax_forward" : "softmax_forward";
  auto make = [&]() -> StatusOr<std::shared_ptr<const SoftmaxEntry>> {
    auto entry = std::make_shared<SoftmaxEntry>();
    entry->md = PlainDesc({outer, dim, inner});
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, primitive_name, [&]() -> Status {
      if (log_) {
        dnnl::logsoftmax_forward::desc desc(dnnl::prop_kind::forward_inference, entry->md, 1);
        dnnl::logsoftmax_forward::primitive_desc pd(desc, DefaultAttr(), dnnl_->engine());
        // The jit logsoftmax takes the log of the row sum with the jit log, whose error near 1
        // (the sum of a row one element dominates) misses ONNX's tolerance.
        if (!UseReferenceImplementation(&pd)) {
          return Unimplemented("oneDNN logsoftmax_forward: no reference implementation");
        }
        entry->pd = pd;
        entry->primitive = dnnl::logsoftmax_forward(pd);
      } else {
        dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, entry->md, 1);
        dnnl::softmax_forward::primitive_desc pd(desc, DefaultAttr(), dnnl_->engine());
        entry->pd = pd;
        entry->primitive = dnnl::softmax_forward(pd);
      }
      return OkStatus();
    }));
    return std::shared_ptr<const SoftmaxEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const SoftmaxEntry> entry,
                            cache_.Get({outer, dim, inner}, make));
  float* out = y.mutable_data<float>();
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, primitive_name, [&]() -> Status {
    ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd,
                          {{DNNL_ARG_SRC, WrapMemory(*dnnl_, entry->md, x->data<float>())},
                           {DNNL_ARG_DST, WrapMemory(*dnnl_, entry->md, out)}});
    return OkStatus();
  }));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
