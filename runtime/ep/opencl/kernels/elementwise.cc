// Elementwise activations: Y has X's shape; the device computes every element.
#include "runtime/ep/opencl/kernels/elementwise.h"

#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::opencl_ep {

namespace {

const char* KernelName(UnaryOp op) {
  switch (op) {
    case UnaryOp::kRelu: return "relu_f32";
    case UnaryOp::kLeakyRelu: return "leaky_relu_f32";
    case UnaryOp::kSigmoid: return "sigmoid_f32";
    case UnaryOp::kTanh: return "tanh_f32";
    case UnaryOp::kExp: return "exp_f32";
    case UnaryOp::kLog: return "log_f32";
    case UnaryOp::kSqrt: return "sqrt_f32";
    case UnaryOp::kAbs: return "abs_f32";
    case UnaryOp::kNeg: return "neg_f32";
  }
  return "";
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> UnaryKernel::Create(const KernelInfo& info, UnaryOp op,
                                                        Context cl) {
  float alpha = 0.0f;
  if (op == UnaryOp::kLeakyRelu) {
    ONNXGATE_ASSIGN_OR_RETURN(alpha, info.GetFloat("alpha", 0.01f));
  }
  return std::unique_ptr<OpKernel>(new UnaryKernel(std::move(cl), KernelName(op), alpha));
}

Status UnaryKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, FloatInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ref::NewTensor(DataType::kFloat, x->shape()));
  ONNXGATE_RETURN_IF_ERROR(
      cl_->Run(kernel_, {static_cast<size_t>(x->NumElements())},
               {KernelArg::Input(*x), KernelArg::Output(y), KernelArg::Float(alpha_)}));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
