// MelWeightMatrix in double. The num_mel_bins + 2 band edges are spaced evenly on the mel scale
// mel(f) = 2595 * log10(1 + f / 700), from lower_edge_hertz in steps of
// (mel(upper_edge_hertz) - mel(lower_edge_hertz)) / (num_mel_bins + 2), and each edge maps to the
// spectrogram bin floor((dft_length + 1) * f / sample_rate). Band i rises linearly from 0 at
// edge i to 1 at edge i + 1 and falls back to 0 at edge i + 2 (a band whose rising side is empty
// has 1 at its centre).
#include "runtime/ep/ref/kernels/signal/mel_weight_matrix.h"

#include <cmath>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/signal/fourier.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

double HertzToMel(double hertz) { return 2595.0 * std::log1p(hertz / 700.0) / std::log(10.0); }
double MelToHertz(double mel) { return 700.0 * std::expm1(mel / 2595.0 * std::log(10.0)); }

// floor(a / b) for a >= 0, b > 0, exact even where a / b rounds up to an integer:
// a - fmod(a, b) is an exact multiple of b.
double FloorDivide(double a, double b) { return std::round((a - std::fmod(a, b)) / b); }

StatusOr<int64_t> PositiveInt(const KernelContext& ctx, size_t index, const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t v, IntScalarOf(*t, name));
  if (v < 1) {
    return InvalidArgument(std::string("MelWeightMatrix: '") + name + "' must be >= 1, got " +
                           std::to_string(v));
  }
  return v;
}

StatusOr<double> Hertz(const KernelContext& ctx, size_t index, const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  ONNXGATE_ASSIGN_OR_RETURN(double v, FloatScalarOf(*t, name));
  if (!std::isfinite(v) || v < 0.0) {
    return InvalidArgument(std::string("MelWeightMatrix: '") + name +
                           "' must be a finite frequency >= 0, got " + t->ElementToString(0));
  }
  return v;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> MelWeightMatrix::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(DataType output_type, OutputDatatypeAttribute(info));
  return std::unique_ptr<OpKernel>(new MelWeightMatrix(output_type));
}

Status MelWeightMatrix::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t num_mel_bins, PositiveInt(ctx, 0, "num_mel_bins"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t dft_length, PositiveInt(ctx, 1, "dft_length"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t sample_rate, PositiveInt(ctx, 2, "sample_rate"));
  ONNXGATE_ASSIGN_OR_RETURN(double lower_hertz, Hertz(ctx, 3, "lower_edge_hertz"));
  ONNXGATE_ASSIGN_OR_RETURN(double upper_hertz, Hertz(ctx, 4, "upper_edge_hertz"));
  if (!(lower_hertz < upper_hertz)) {
    return InvalidArgument("MelWeightMatrix: 'lower_edge_hertz' (" + std::to_string(lower_hertz) +
                           ") must be below 'upper_edge_hertz' (" + std::to_string(upper_hertz) +
                           ")");
  }
  const int64_t spectrogram_bins = dft_length / 2 + 1;
  const Shape ys{spectrogram_bins, num_mel_bins};
  Status valid = ys.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double)));
  if (!valid.ok()) return valid.WithContext("MelWeightMatrix: output shape");

  // The band edges as spectrogram bins; nondecreasing since lower < upper.
  const int64_t edges = num_mel_bins + 2;
  const double low_mel = HertzToMel(lower_hertz);
  const double mel_step = (HertzToMel(upper_hertz) - low_mel) / static_cast<double>(edges);
  std::vector<double> edge(static_cast<size_t>(edges));
  for (int64_t e = 0; e < edges; ++e) {
    const double hertz = MelToHertz(static_cast<double>(e) * mel_step + low_mel);
    edge[e] =
        FloorDivide(static_cast<double>(dft_length + 1) * hertz, static_cast<double>(sample_rate));
  }
  // Band i writes bins edge[i] .. edge[i + 1] and up to edge[i + 2] - 1.
  const double bins = static_cast<double>(spectrogram_bins);
  if (!(edge[edges - 2] < bins && edge[edges - 1] <= bins)) {
    return InvalidArgument(
        "MelWeightMatrix: the top band edges fall on spectrogram bins " +
        std::to_string(edge[edges - 2]) + " and " + std::to_string(edge[edges - 1]) +
        ", beyond the " + std::to_string(spectrogram_bins) + " bins of dft_length " +
        std::to_string(dft_length) + " at sample_rate " + std::to_string(sample_rate) +
        "; 'upper_edge_hertz' (" + std::to_string(upper_hertz) + ") is too high");
  }
  std::vector<int64_t> edge_bin(edge.begin(), edge.end());

  std::vector<double> y(static_cast<size_t>(spectrogram_bins * num_mel_bins), 0.0);
  auto at = [&](int64_t bin, int64_t band) -> double& { return y[bin * num_mel_bins + band]; };
  for (int64_t band = 0; band < num_mel_bins; ++band) {
    const int64_t left = edge_bin[band], center = edge_bin[band + 1], right = edge_bin[band + 2];
    if (center == left) {
      at(center, band) = 1.0;
    } else {
      for (int64_t j = left; j <= center; ++j) {
        at(j, band) = static_cast<double>(j - left) / static_cast<double>(center - left);
      }
    }
    for (int64_t j = center; j < right; ++j) {
      at(j, band) = static_cast<double>(right - j) / static_cast<double>(right - center);
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(output_type_, ys, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
