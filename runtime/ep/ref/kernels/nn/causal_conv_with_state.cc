// CausalConvWithState in double; the convolution is rounded to the element type before the
// activation, as the function body's Conv output is.
#include "runtime/ep/ref/kernels/nn/causal_conv_with_state.h"

#include <cmath>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/nn/precision.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> CausalConvWithStateKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string activation, info.GetString("activation", "none"));
  if (activation != "none" && activation != "silu" && activation != "swish") {
    return InvalidArgument("'activation' must be 'none', 'silu' or 'swish', got '" + activation +
                           "'");
  }
  return std::unique_ptr<OpKernel>(new CausalConvWithStateKernel(activation != "none"));
}

Status CausalConvWithStateKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* weight, GetInput(ctx, 1, "weight"));
  const Tensor* bias = ctx.input_tensor(2);
  const Tensor* past = ctx.input_tensor(3);
  const Shape& xs = input->shape();
  const Shape& ws = weight->shape();
  if (xs.rank() != 3) {
    return InvalidArgument("input must be 3-D (batch_size, channels, length), got " +
                           xs.ToString());
  }
  const int64_t batch = xs[0], channels = xs[1], length = xs[2];
  if (ws.rank() != 3 || ws[0] != channels || ws[1] != 1 || ws[2] < 1) {
    return InvalidArgument("weight " + ws.ToString() + " must be (channels " +
                           std::to_string(channels) + ", 1, k) with k >= 1");
  }
  const int64_t k = ws[2], history = k - 1;
  const DataType type = input->dtype();
  if (weight->dtype() != type || (bias != nullptr && bias->dtype() != type) ||
      (past != nullptr && past->dtype() != type)) {
    return InvalidArgument("weight, bias and past_state must have input's type " +
                           std::string(DataTypeShortName(type)));
  }
  if (bias != nullptr && bias->shape() != Shape({channels})) {
    return InvalidArgument("bias " + bias->shape().ToString() + " must be (channels) [" +
                           std::to_string(channels) + "]");
  }
  const Shape state_shape({batch, channels, history});
  if (past != nullptr && past->shape() != state_shape) {
    return InvalidArgument("past_state " + past->shape().ToString() +
                           " must be (batch_size, channels, k - 1) " + state_shape.ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> x, ToDoubles(*input));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> w, ToDoubles(*weight));
  std::vector<double> bd(static_cast<size_t>(channels), 0.0);
  if (bias != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(bd, ToDoubles(*bias));
  }
  std::vector<double> pd(static_cast<size_t>(batch * channels * history), 0.0);
  if (past != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(pd, ToDoubles(*past));
  }

  const int64_t padded_len = history + length;
  std::vector<double> y(x.size()), present(pd.size()), padded(static_cast<size_t>(padded_len));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t row = b * channels + c;
      for (int64_t p = 0; p < padded_len; ++p) {
        padded[p] = p < history ? pd[row * history + p] : x[row * length + p - history];
      }
      for (int64_t l = 0; l < length; ++l) {
        double acc = bd[c];
        for (int64_t i = 0; i < k; ++i) acc += w[c * k + i] * padded[l + i];
        double out = ref::RoundToPrecision(type, acc);
        if (silu_) out = out / (1.0 + std::exp(-out));
        y[row * length + l] = out;
      }
      for (int64_t p = 0; p < history; ++p) present[row * history + p] = padded[length + p];
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(type, xs, y));
  ctx.set_output(0, std::move(yt));
  if (ctx.num_outputs() > 1) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor st, FromDoubles(type, state_shape, present));
    ctx.set_output(1, std::move(st));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
