// Tests of STFT: frame count and placement, windowing, one-sided and full spectra, how the
// frame length is found, and rejected inputs.
#include "runtime/ep/ref/kernels/signal/stft.h"

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"
#include "runtime/ep/ref/kernels/signal/fourier.h"
#include "runtime/ep/ref/kernels/signal/signal_test_helpers.h"

namespace onnxgate::ref {
namespace {

StatusCode StftError(const std::string& node, const std::vector<Value>& inputs) {
  auto out = RunSignalNode(node, inputs);
  return out.ok() ? StatusCode::kOk : out.status().code();
}

// [re, im] of bins 0..bins-1 of the DFT of frame * window, from the defining sum.
std::vector<double> FrameSpectrum(const std::vector<std::complex<double>>& frame,
                                  const std::vector<double>& window, int64_t bins) {
  const double n = static_cast<double>(frame.size());
  std::vector<double> out;
  for (int64_t k = 0; k < bins; ++k) {
    std::complex<double> sum = 0.0;
    for (size_t j = 0; j < frame.size(); ++j) {
      sum += frame[j] * window[j] *
             std::polar(1.0, -2.0 * kPi * static_cast<double>(k) * static_cast<double>(j) / n);
    }
    out.insert(out.end(), {sum.real(), sum.imag()});
  }
  return out;
}

std::vector<std::complex<double>> Slice(const std::vector<double>& real, size_t start,
                                        size_t length) {
  std::vector<std::complex<double>> out;
  for (size_t i = start; i < start + length; ++i) out.emplace_back(real[i], 0.0);
  return out;
}

TEST(StftTest, FramesStepThroughTheSignal) {
  // Signal 0..9, frame_length 4, frame_step 3: floor((10 - 4) / 3) + 1 = 3 frames starting at
  // 0, 3 and 6; onesided (the default) keeps 4 / 2 + 1 = 3 bins.
  std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto out = RunSignalNode("Y = STFT (X, S, , L)",
                           {TensorValue<double>({1, 10, 1}, x), TensorValue<int64_t>({}, {3}),
                            Value(), TensorValue<int64_t>({}, {4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{1, 3, 3, 2}));
  std::vector<double> expected;
  for (size_t start : {0u, 3u, 6u}) {
    auto frame = FrameSpectrum(Slice(x, start, 4), {1, 1, 1, 1}, 3);
    expected.insert(expected.end(), frame.begin(), frame.end());
  }
  EXPECT_THAT(Elements<double>((*out)[0]), FloatsNear(expected));
  // The first frame by hand: DFT of [0, 1, 2, 3] is [6, -2+2i, -2, ...].
  EXPECT_THAT(std::vector<double>(expected.begin(), expected.begin() + 6),
              FloatsNear(std::vector<double>{6, 0, -2, 2, -2, 0}));
}

TEST(StftTest, WindowWeightsEachFrameAndSetsTheFrameLength) {
  std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<double> window = {0, 0.5, 1, 0.5};
  auto out =
      RunSignalNode("Y = STFT <onesided = 0> (X, S, W)",
                    {TensorValue<float>({1, 8, 1}, std::vector<float>(x.begin(), x.end())),
                     TensorValue<int32_t>({}, {4}),
                     TensorValue<float>({4}, std::vector<float>(window.begin(), window.end()))});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // Two frames of 4 full bins each.
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{1, 2, 4, 2}));
  std::vector<double> expected = FrameSpectrum(Slice(x, 0, 4), window, 4);
  auto second = FrameSpectrum(Slice(x, 4, 4), window, 4);
  expected.insert(expected.end(), second.begin(), second.end());
  EXPECT_THAT(Elements<float>((*out)[0]), FloatsNear(expected));
  // By hand, frame 0 weighted is [0, 1, 3, 2]: X0 = 6, X1 = -i - 3 + 2i = -3 + i.
  EXPECT_THAT(std::vector<double>(expected.begin(), expected.begin() + 4),
              FloatsNear(std::vector<double>{6, 0, -3, 1}));
}

TEST(StftTest, ComplexSignalsAndBatches) {
  // Two batches of a complex signal of length 3, one frame each (no window, no frame_length:
  // the frame is the whole signal), full spectrum.
  const std::vector<double> x = {1, 1, 0, 0, 0, 0, /* batch 1 */ 0, 0, 1, 0, 0, 0};
  auto out = RunSignalNode("Y = STFT <onesided = 0> (X, S)",
                           {TensorValue<double>({2, 3, 2}, x), TensorValue<int64_t>({}, {1})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{2, 1, 3, 2}));
  // Batch 0 is (1 + i) at n = 0: every bin is 1 + i. Batch 1 is 1 at n = 1:
  // X[k] = exp(-2 pi i k / 3).
  const double c = std::cos(2 * kPi / 3), s = std::sin(2 * kPi / 3);
  EXPECT_THAT(Elements<double>((*out)[0]),
              FloatsNear(std::vector<double>{1, 1, 1, 1, 1, 1, 1, 0, c, -s, c, s}));
}

TEST(StftTest, HalfPrecisionSignal) {
  auto out = RunSignalNode("Y = STFT (X, S, , L)",
                           {ref::HalfValue({1, 4, 1}, {0, 1, 2, 3}), TensorValue<int64_t>({}, {4}),
                            Value(), TensorValue<int64_t>({}, {4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{1, 1, 3, 2}));
  EXPECT_THAT(ref::HalfValuesOf<Float16>((*out)[0]),
              FloatsNear(std::vector<double>{6, 0, -2, 2, -2, 0}));
}

TEST(StftTest, RejectsBadInputs) {
  const Value x = TensorValue<float>({1, 8, 1}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Value step = TensorValue<int64_t>({}, {2});
  const Value w4 = TensorValue<float>({4}, {1, 1, 1, 1});
  auto len = [](int64_t v) { return TensorValue<int64_t>({}, {v}); };
  EXPECT_EQ(StftError("Y = STFT (X, S, W, L)", {x, step, w4, len(4)}), StatusCode::kOk);
  EXPECT_EQ(StftError("Y = STFT (X, S, W, L)", {x, step, w4, len(5)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT (X, S, , L)", {x, step, Value(), len(9)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT (X, S, , L)", {x, step, Value(), len(0)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT (X, S, , L)", {x, len(0), Value(), len(4)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT <onesided = 2> (X, S, , L)", {x, step, Value(), len(4)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT (X, S, W)", {x, step, TensorValue<float>({2, 2}, {1, 1, 1, 1})}),
            StatusCode::kInvalidArgument);
  // A complex signal has no one-sided spectrum; rank and last dim are checked.
  const Value complex_x = TensorValue<float>({1, 4, 2}, {1, 0, 2, 0, 3, 0, 4, 0});
  EXPECT_EQ(StftError("Y = STFT (X, S, , L)", {complex_x, step, Value(), len(4)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT <onesided = 0> (X, S, , L)", {complex_x, step, Value(), len(4)}),
            StatusCode::kOk);
  EXPECT_EQ(StftError("Y = STFT (X, S, , L)", {TensorValue<float>({8, 1}, {1, 2, 3, 4, 5, 6, 7, 8}),
                                               step, Value(), len(4)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StftError("Y = STFT (X, S, , L)",
                      {TensorValue<float>({1, 2, 3}, {1, 2, 3, 4, 5, 6}), step, Value(), len(2)}),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
