// The cosine-sum windows in double, converted once to the requested output type.
#include "runtime/ep/ref/kernels/signal/signal_window.h"

#include <cmath>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/signal/fourier.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

struct WindowCoefficients {
  const char* op;
  double a0, a1, a2;
};

// The coefficients of the ONNX schemas' function bodies; Hamming's are 25/46 and 21/46.
constexpr WindowCoefficients kWindows[] = {
    {"HannWindow", 0.5, 0.5, 0.0},
    {"HammingWindow", 25.0 / 46.0, 21.0 / 46.0, 0.0},
    {"BlackmanWindow", 0.42, 0.5, 0.08},
};

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> CosineSumWindow::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(bool periodic, FlagAttribute(info, "periodic", 1));
  ONNXGATE_ASSIGN_OR_RETURN(DataType output_type, OutputDatatypeAttribute(info));
  for (const WindowCoefficients& w : kWindows) {
    if (info.op_type() == w.op) {
      return std::unique_ptr<OpKernel>(
          new CosineSumWindow(w.op, w.a0, w.a1, w.a2, periodic, output_type));
    }
  }
  return InvalidArgument("not a window op (HannWindow, HammingWindow or BlackmanWindow)");
}

Status CosineSumWindow::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* size_in, GetInput(ctx, 0, "size"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t size, IntScalarOf(*size_in, "size"));
  if (size < 1) {
    return InvalidArgument(std::string(op_) + ": 'size' must be >= 1, got " + std::to_string(size));
  }
  // A symmetric window divides by size - 1.
  if (!periodic_ && size < 2) {
    return InvalidArgument(std::string(op_) +
                           ": a symmetric window (periodic=0) needs 'size' >= 2, got " +
                           std::to_string(size));
  }
  const Shape ys{size};
  Status valid = ys.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double)));
  if (!valid.ok()) return valid.WithContext(std::string(op_) + ": output shape");
  const double period = static_cast<double>(periodic_ ? size : size - 1);
  std::vector<double> y(static_cast<size_t>(size));
  for (int64_t n = 0; n < size; ++n) {
    const double angle = 2.0 * kPi * static_cast<double>(n) / period;
    y[n] = a0_ - a1_ * std::cos(angle) + a2_ * std::cos(2.0 * angle);
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(output_type_, ys, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
