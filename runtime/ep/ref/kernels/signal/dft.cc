// DFT in double: each line along the axis is truncated or zero-padded to dft_length and
// transformed on its own.
#include "runtime/ep/ref/kernels/signal/dft.h"

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/signal/fourier.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> Dft::Create(const KernelInfo& info) {
  const bool axis_input = info.since_version() >= 20;
  if (axis_input && info.has_attribute("axis")) {
    return InvalidArgument("DFT-20 takes the axis as its third input, not as an attribute");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis,
                            axis_input ? StatusOr<int64_t>(-2) : info.GetInt("axis", 1));
  ONNXGATE_ASSIGN_OR_RETURN(bool inverse, FlagAttribute(info, "inverse", 0));
  ONNXGATE_ASSIGN_OR_RETURN(bool onesided, FlagAttribute(info, "onesided", 0));
  return std::unique_ptr<OpKernel>(new Dft(axis, axis_input, inverse, onesided));
}

Status Dft::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  const Shape& xs = x->shape();
  const int64_t rank = static_cast<int64_t>(xs.rank());
  if (rank < 2) {
    return InvalidArgument("DFT: 'input' must have rank >= 2 (signal dims, then 1 or 2), got " +
                           xs.ToString());
  }
  const int64_t parts = xs[rank - 1];
  if (parts != 1 && parts != 2) {
    return InvalidArgument("DFT: the last dim of 'input' must be 1 (real) or 2 (complex), got " +
                           xs.ToString());
  }
  int64_t given_axis = axis_;
  const Tensor* axis_tensor = axis_input_ ? ctx.input_tensor(2) : nullptr;
  if (axis_tensor != nullptr) {
    if (axis_tensor->dtype() != DataType::kInt64 || axis_tensor->NumElements() != 1 ||
        axis_tensor->shape().rank() > 1) {
      return InvalidArgument("DFT: input 'axis' must be an int64 scalar, got " +
                             std::string(DataTypeShortName(axis_tensor->dtype())) +
                             axis_tensor->shape().ToString());
    }
    given_axis = axis_tensor->data<int64_t>()[0];
  }
  // The last dim holds the real and imaginary parts, so it cannot be the axis.
  if (given_axis < -rank || given_axis > rank - 2 || given_axis == -1) {
    return InvalidArgument(std::string("DFT: ") + (axis_input_ ? "input" : "attribute") +
                           " 'axis' must be in [" + std::to_string(-rank) + ", -2] or [0, " +
                           std::to_string(rank - 2) + "] for an input of rank " +
                           std::to_string(rank) + ", got " + std::to_string(given_axis));
  }
  const size_t axis = static_cast<size_t>(given_axis < 0 ? given_axis + rank : given_axis);
  const bool rfft = onesided_ && !inverse_;
  const bool irfft = onesided_ && inverse_;
  if (rfft && parts != 1) {
    return InvalidArgument(
        "DFT: onesided=1 with inverse=0 (RFFT) takes a real input (last dim 1), got " +
        xs.ToString());
  }
  if (irfft && parts != 2) {
    return InvalidArgument(
        "DFT: onesided=1 with inverse=1 (IRFFT) takes a complex input (last dim 2), got " +
        xs.ToString());
  }

  const int64_t n_in = xs[axis];
  int64_t length = irfft ? 2 * (n_in - 1) : n_in;
  if (const Tensor* dft_length = ctx.input_tensor(1)) {
    ONNXGATE_ASSIGN_OR_RETURN(length, IntScalarOf(*dft_length, "dft_length"));
    if (length < 1) {
      return InvalidArgument("DFT: 'dft_length' must be >= 1, got " + std::to_string(length));
    }
  } else if (length < 1) {
    return InvalidArgument("DFT: the default dft_length (" +
                           std::string(irfft ? "2 * (axis dim - 1)" : "the axis dim") + ") is " +
                           std::to_string(length) + " for input " + xs.ToString() + " and axis " +
                           std::to_string(axis) + "; it must be >= 1");
  }

  Shape ys = xs;
  const int64_t n_out = rfft ? length / 2 + 1 : length;
  const int64_t out_parts = irfft ? 1 : 2;
  ys[axis] = n_out;
  ys[ys.rank() - 1] = out_parts;
  Status valid = ys.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double)));
  if (!valid.ok()) return valid.WithContext("DFT: output shape");

  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= xs[i];
  for (size_t i = axis + 1; i + 1 < xs.rank(); ++i) inner *= xs[i];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  std::vector<double> y(static_cast<size_t>(ys.NumElements()));
  const double scale = inverse_ ? 1.0 / static_cast<double>(length) : 1.0;
  const size_t len = static_cast<size_t>(length);
  std::vector<Complex> line(len);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto in_at = [&](int64_t k) { return ((o * n_in + k) * inner + i) * parts; };
      auto out_at = [&](int64_t k) { return ((o * n_out + k) * inner + i) * out_parts; };
      std::fill(line.begin(), line.end(), Complex(0.0, 0.0));
      if (irfft) {
        // Rebuild the full spectrum from bins 0..length/2 by conjugate symmetry; the real part
        // of its inverse ignores the imaginary parts of the DC (and even-length Nyquist) bins.
        const int64_t half = length / 2;
        for (int64_t k = 0; k <= half && k < n_in; ++k) {
          line[k] = Complex(xd[in_at(k)], xd[in_at(k) + 1]);
        }
        for (int64_t k = half + 1; k < length; ++k) line[k] = std::conj(line[length - k]);
      } else {
        for (int64_t k = 0; k < std::min(n_in, length); ++k) {
          line[k] = Complex(xd[in_at(k)], parts == 2 ? xd[in_at(k) + 1] : 0.0);
        }
      }
      Fourier(line, inverse_);
      for (int64_t k = 0; k < n_out; ++k) {
        y[out_at(k)] = line[k].real() * scale;
        if (out_parts == 2) y[out_at(k) + 1] = line[k].imag() * scale;
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(x->dtype(), ys, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
