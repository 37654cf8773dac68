// STFT in double: frames start every frame_step samples, are multiplied by the window (all ones
// when absent) and transformed without normalization.
#include "runtime/ep/ref/kernels/signal/stft.h"

#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/signal/fourier.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> Stft::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(bool onesided, FlagAttribute(info, "onesided", 1));
  return std::unique_ptr<OpKernel>(new Stft(onesided));
}

Status Stft::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* signal, GetInput(ctx, 0, "signal"));
  const Shape& ss = signal->shape();
  if (ss.rank() != 3 || (ss[2] != 1 && ss[2] != 2)) {
    return InvalidArgument(
        "STFT: 'signal' must have shape [batch, signal_length, 1 (real) or 2 (complex)], got " +
        ss.ToString());
  }
  const int64_t batch = ss[0], signal_length = ss[1], parts = ss[2];
  if (onesided_ && parts == 2) {
    return InvalidArgument(
        "STFT: onesided=1 needs a real signal (last dim 1); a complex signal has no one-sided "
        "spectrum, got " +
        ss.ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* step_t, GetInput(ctx, 1, "frame_step"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t frame_step, IntScalarOf(*step_t, "frame_step"));
  if (frame_step < 1) {
    return InvalidArgument("STFT: 'frame_step' must be >= 1, got " + std::to_string(frame_step));
  }

  // frame_length: the input when given, else the window's length, else the whole signal.
  const Tensor* window = ctx.input_tensor(2);
  if (window != nullptr && window->shape().rank() != 1) {
    return InvalidArgument("STFT: 'window' must be 1-D, got shape " + window->shape().ToString());
  }
  int64_t frame_length = window != nullptr ? window->shape()[0] : signal_length;
  if (const Tensor* length_t = ctx.input_tensor(3)) {
    ONNXGATE_ASSIGN_OR_RETURN(frame_length, IntScalarOf(*length_t, "frame_length"));
    if (window != nullptr && window->shape()[0] != frame_length) {
      return InvalidArgument("STFT: 'window' has length " + std::to_string(window->shape()[0]) +
                             " but 'frame_length' is " + std::to_string(frame_length) +
                             "; they must be equal");
    }
  }
  if (frame_length < 1 || frame_length > signal_length) {
    return InvalidArgument(
        "STFT: the frame length must be in [1, signal_length = " + std::to_string(signal_length) +
        "], got " + std::to_string(frame_length));
  }

  const int64_t frames = (signal_length - frame_length) / frame_step + 1;
  const int64_t bins = onesided_ ? frame_length / 2 + 1 : frame_length;
  const Shape ys{batch, frames, bins, 2};
  Status valid = ys.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double)));
  if (!valid.ok()) return valid.WithContext("STFT: output shape");

  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*signal));
  std::vector<double> wd(static_cast<size_t>(frame_length), 1.0);
  if (window != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(wd, ToDoubles(*window));
  }
  std::vector<double> y(static_cast<size_t>(ys.NumElements()));
  std::vector<Complex> line(static_cast<size_t>(frame_length));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t f = 0; f < frames; ++f) {
      const int64_t start = f * frame_step;
      for (int64_t k = 0; k < frame_length; ++k) {
        const int64_t at = (b * signal_length + start + k) * parts;
        line[k] = Complex(xd[at], parts == 2 ? xd[at + 1] : 0.0) * wd[k];
      }
      Fourier(line, /*inverse=*/false);
      for (int64_t k = 0; k < bins; ++k) {
        const int64_t at = ((b * frames + f) * bins + k) * 2;
        y[at] = line[k].real();
        y[at + 1] = line[k].imag();
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(signal->dtype(), ys, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
