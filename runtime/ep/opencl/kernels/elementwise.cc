// Elementwise activations: Y has X's shape; the device computes every element, from X on the
// device or copied in, into Y left on the device.
#include "runtime/ep/opencl/kernels/elementwise.h"

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
  ONNXGATE_ASSIGN_OR_RETURN(ClInput x, GetClInput(ctx, *cl_, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, x.shape));
  ONNXGATE_RETURN_IF_ERROR(cl_->Run(kernel_, {static_cast<size_t>(x.NumElements())},
                                    {x.arg, y.arg(), KernelArg::Float(alpha_)}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
