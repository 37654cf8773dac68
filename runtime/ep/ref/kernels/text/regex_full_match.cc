// RegexFullMatch.
#include "runtime/ep/ref/kernels/text/regex_full_match.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> RegexFullMatchKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string pattern, info.GetString("pattern", ""));
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto regex = std::make_unique<re2::RE2>(pattern, options);
  if (!regex->ok()) {
    return InvalidArgument("'pattern' \"" + pattern +
                           "\" is not a valid RE2 regular expression: " + regex->error());
  }
  return std::unique_ptr<OpKernel>(new RegexFullMatchKernel(std::move(regex)));
}

Status RegexFullMatchKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  if (x->dtype() != DataType::kString) {
    return InvalidArgument(std::string("X must be strings, got ") + DataTypeShortName(x->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, x->shape()));
  const std::string* in = x->data<std::string>();
  bool* out = y.mutable_data<bool>();
  for (int64_t i = 0; i < x->NumElements(); ++i) {
    out[i] = re2::RE2::FullMatch(in[i], *regex_);
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
