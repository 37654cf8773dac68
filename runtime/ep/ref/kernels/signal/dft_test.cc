// Tests of the Fourier transform helper and DFT: small transforms against the defining sum,
// axes and layouts, dft_length padding and truncation, RFFT/IRFFT round trips and rejections.
#include "runtime/ep/ref/kernels/signal/dft.h"

#include <algorithm>
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

std::vector<double> RunDftOk(const std::string& node, const std::vector<Value>& inputs,
                             std::vector<int64_t>* dims = nullptr) {
  auto out = RunSignalNode(node, inputs);
  EXPECT_TRUE(out.ok()) << node << ": " << out.status().ToString();
  if (!out.ok() || out->size() != 1) return {};
  if (dims != nullptr) *dims = Dims((*out)[0]);
  return Elements<double>((*out)[0]);
}

StatusCode DftError(const std::string& node, const std::vector<Value>& inputs) {
  auto out = RunSignalNode(node, inputs);
  return out.ok() ? StatusCode::kOk : out.status().code();
}

// The defining sum, with the angle of every term computed on its own.
std::vector<Complex> Reference(const std::vector<Complex>& x, bool inverse) {
  const double n = static_cast<double>(x.size());
  std::vector<Complex> out(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    for (size_t j = 0; j < x.size(); ++j) {
      const double angle = (inverse ? 2.0 : -2.0) * kPi * static_cast<double>(k * j) / n;
      out[k] += x[j] * std::polar(1.0, angle);
    }
  }
  return out;
}

std::vector<Complex> TestSignal(size_t n) {
  std::vector<Complex> x(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = Complex(std::sin(0.7 * static_cast<double>(i)) + 0.25 * static_cast<double>(i % 3),
                   std::cos(1.3 * static_cast<double>(i)));
  }
  return x;
}

double MaxError(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(FourierTest, MatchesTheDefiningSumForEveryAlgorithm) {
  // Direct sums (short), radix-2 (powers of two) and Bluestein (long, not powers of two).
  for (size_t n :
       {1u, 2u, 3u, 4u, 5u, 7u, 8u, 10u, 12u, 16u, 63u, 64u, 65u, 97u, 100u, 128u, 257u, 1000u}) {
    for (bool inverse : {false, true}) {
      SCOPED_TRACE("n=" + std::to_string(n) + (inverse ? " inverse" : " forward"));
      const std::vector<Complex> x = TestSignal(n);
      std::vector<Complex> y = x;
      Fourier(y, inverse);
      EXPECT_LT(MaxError(y, Reference(x, inverse)), 1e-12 * static_cast<double>(n));
      EXPECT_LT(MaxError(DirectFourier(x, inverse), Reference(x, inverse)),
                1e-12 * static_cast<double>(n));
    }
  }
}

TEST(FourierTest, InverseUndoesForwardUpToTheLength) {
  for (size_t n : {6u, 32u, 101u, 640u}) {
    const std::vector<Complex> x = TestSignal(n);
    std::vector<Complex> y = x;
    Fourier(y, false);
    Fourier(y, true);
    for (Complex& v : y) v /= static_cast<double>(n);
    EXPECT_LT(MaxError(y, x), 1e-12) << "n=" << n;
  }
}

TEST(DftTest, RealSignalOfFour) {
  // DFT of [1, 2, 3, 4]: [10, -2+2i, -2, -2-2i].
  std::vector<int64_t> dims;
  auto y = RunDftOk("Y = DFT (X)", {TensorValue<double>({1, 4, 1}, {1, 2, 3, 4})}, &dims);
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 4, 2}));
  EXPECT_THAT(y, FloatsNear(std::vector<double>{10, 0, -2, 2, -2, 0, -2, -2}));
}

TEST(DftTest, OnesidedKeepsHalfPlusOneBins) {
  std::vector<int64_t> dims;
  auto y =
      RunDftOk("Y = DFT <onesided = 1> (X)", {TensorValue<double>({1, 4, 1}, {1, 2, 3, 4})}, &dims);
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 3, 2}));
  EXPECT_THAT(y, FloatsNear(std::vector<double>{10, 0, -2, 2, -2, 0}));
  // Odd length 5: floor(5 / 2) + 1 = 3 bins.
  y = RunDftOk("Y = DFT <onesided = 1> (X)", {TensorValue<double>({1, 5, 1}, {1, 0, 0, 0, 0})},
               &dims);
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 3, 2}));
  EXPECT_THAT(y, FloatsNear(std::vector<double>{1, 0, 1, 0, 1, 0}));
}

TEST(DftTest, DftLengthPadsWithZerosOrTruncates) {
  const Value x = TensorValue<float>({1, 3, 1}, {1, 2, 3});
  // [1, 2, 3, 0]: [6, -2-2i, 2, -2+2i].
  auto out = RunSignalNode("Y = DFT (X, L)", {x, TensorValue<int64_t>({}, {4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{1, 4, 2}));
  EXPECT_THAT(Elements<float>((*out)[0]),
              FloatsNear(std::vector<double>{6, 0, -2, -2, 2, 0, -2, 2}));
  // [1, 2]: [3, -1].
  out = RunSignalNode("Y = DFT (X, L)", {x, TensorValue<int32_t>({}, {2})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_THAT(Elements<float>((*out)[0]), FloatsNear(std::vector<double>{3, 0, -1, 0}));
}

TEST(DftTest, EveryAxisOfAComplexTensorMatchesTheSum) {
  // x has shape [2, 3, 5, 2]: transform along axis 1 (length 3) and along axis 2 (length 5).
  const std::vector<int64_t> shape = {2, 3, 5};
  std::vector<double> xd;
  for (int i = 0; i < 30; ++i) {
    xd.push_back(std::sin(0.3 * i) + 0.1 * i);
    xd.push_back(std::cos(0.5 * i));
  }
  auto element = [&](const std::vector<double>& v, int64_t a, int64_t b, int64_t c) {
    const size_t at = static_cast<size_t>(((a * 3 + b) * 5 + c) * 2);
    return Complex(v[at], v[at + 1]);
  };
  for (int64_t axis : {1, 2, -3, -2}) {
    for (int inverse : {0, 1}) {
      SCOPED_TRACE("axis " + std::to_string(axis) + " inverse " + std::to_string(inverse));
      const int64_t a = axis < 0 ? axis + 4 : axis;
      std::vector<int64_t> dims;
      auto y = RunDftOk("Y = DFT <axis = " + std::to_string(axis) +
                            ", inverse = " + std::to_string(inverse) + "> (X)",
                        {TensorValue<double>({2, 3, 5, 2}, xd)}, &dims);
      ASSERT_EQ(dims, (std::vector<int64_t>{2, 3, 5, 2}));
      const int64_t n = shape[static_cast<size_t>(a)];
      for (int64_t p = 0; p < 2; ++p) {
        for (int64_t q = 0; q < 3; ++q) {
          for (int64_t r = 0; r < 5; ++r) {
            // Output index k along the axis; sum over the axis index j.
            const int64_t k = a == 1 ? q : r;
            Complex expected = 0.0;
            for (int64_t j = 0; j < n; ++j) {
              const Complex v = a == 1 ? element(xd, p, j, r) : element(xd, p, q, j);
              const double angle = (inverse ? 2.0 : -2.0) * kPi * static_cast<double>(k * j) /
                                   static_cast<double>(n);
              expected += v * std::polar(1.0, angle);
            }
            if (inverse) expected /= static_cast<double>(n);
            const Complex got = element(y, p, q, r);
            EXPECT_NEAR(got.real(), expected.real(), 1e-12);
            EXPECT_NEAR(got.imag(), expected.imag(), 1e-12);
          }
        }
      }
    }
  }
}

TEST(DftTest, InverseOfForwardIsTheSignal) {
  const std::vector<double> x = {1, -2, 0.5, 3, 4, -1, 2};
  auto spectrum = RunSignalNode("Y = DFT (X)", {TensorValue<double>({1, 7, 1}, x)});
  ASSERT_TRUE(spectrum.ok()) << spectrum.status().ToString();
  auto back = RunDftOk("Y = DFT <inverse = 1> (X)", {(*spectrum)[0]});
  std::vector<double> expected;
  for (double v : x) expected.insert(expected.end(), {v, 0.0});
  EXPECT_THAT(back, FloatsNear(expected));
}

TEST(DftTest, IrfftRestoresARealSignalFromItsOnesidedSpectrum) {
  for (const std::vector<double>& x :
       {std::vector<double>{1, -2, 0.5, 3, 4, -1}, std::vector<double>{1, -2, 0.5, 3, 4}}) {
    const int64_t n = static_cast<int64_t>(x.size());
    SCOPED_TRACE("n=" + std::to_string(n));
    auto half = RunSignalNode("Y = DFT <onesided = 1> (X)", {TensorValue<double>({1, n, 1}, x)});
    ASSERT_TRUE(half.ok()) << half.status().ToString();
    EXPECT_EQ(Dims((*half)[0]), (std::vector<int64_t>{1, n / 2 + 1, 2}));
    std::vector<int64_t> dims;
    // An even length is the default 2 * (bins - 1); an odd one needs dft_length.
    auto back = n % 2 == 0
                    ? RunDftOk("Y = DFT <onesided = 1, inverse = 1> (X)", {(*half)[0]}, &dims)
                    : RunDftOk("Y = DFT <onesided = 1, inverse = 1> (X, L)",
                               {(*half)[0], TensorValue<int64_t>({}, {n})}, &dims);
    EXPECT_EQ(dims, (std::vector<int64_t>{1, n, 1}));
    EXPECT_THAT(back, FloatsNear(x));
  }
}

TEST(DftTest, IrfftUsesBinsUpToHalfTheLengthAndDropsImaginaryDcAndNyquist) {
  // Bins X0..X3 = 1+2i, 3-i, 2+5i, 4+4i. For length 4 only X0..X2 count, X0 and X2 (Nyquist)
  // as their real parts, and X3 is conj(X1): y[n] = (1 + 2 (3 cos(pi n / 2) + sin(pi n / 2)) +
  // 2 (-1)^n) / 4 = [2.25, 0.25, -0.75, -0.75].
  const Value x = TensorValue<double>({1, 4, 2}, {1, 2, 3, -1, 2, 5, 4, 4});
  std::vector<int64_t> dims;
  auto y = RunDftOk("Y = DFT <onesided = 1, inverse = 1> (X, L)",
                    {x, TensorValue<int64_t>({}, {4})}, &dims);
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 4, 1}));
  EXPECT_THAT(y, FloatsNear(std::vector<double>{2.25, 0.25, -0.75, -0.75}));
  // Length 5 uses X0..X2, none of them a Nyquist bin (numpy.fft.irfft(x, n=5)).
  y = RunDftOk("Y = DFT <onesided = 1, inverse = 1> (X, L)", {x, TensorValue<int64_t>({}, {5})},
               &dims);
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 5, 1}));
  EXPECT_THAT(y, FloatsNear(std::vector<double>{2.2, -0.871541100317, 1.613620335757,
                                                -2.660833931257, 0.718754695817}));
}

TEST(DftTest, HalfPrecisionTypesComputeInDouble) {
  auto out = RunSignalNode("Y = DFT (X)", {ref::HalfValue({1, 4, 1}, {1, 2, 3, 4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(ref::HalfValuesOf<Float16>((*out)[0]),
              FloatsNear(std::vector<double>{10, 0, -2, 2, -2, 0, -2, -2}));
  out = RunSignalNode("Y = DFT (X)", {ref::BFloat16Value({1, 2, 1}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(ref::HalfValuesOf<BFloat16>((*out)[0]), FloatsNear(std::vector<double>{3, 0, -1, 0}));
}

TEST(DftTest, RejectsBadAttributesAndInputs) {
  const Value real = TensorValue<float>({1, 4, 1}, {1, 2, 3, 4});
  const Value cplx = TensorValue<float>({1, 2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(DftError("Y = DFT <onesided = 2> (X)", {real}), StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT <inverse = -1> (X)", {real}), StatusCode::kInvalidArgument);
  // The last dim is the complex one; the axis must be in [-3, -2] or [0, 1] for rank 3.
  EXPECT_EQ(DftError("Y = DFT <axis = 2> (X)", {real}), StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT <axis = -1> (X)", {real}), StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT <axis = -4> (X)", {real}), StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT <axis = 0> (X)", {real}), StatusCode::kOk);
  EXPECT_EQ(DftError("Y = DFT (X)", {TensorValue<float>({1, 2, 3}, {1, 2, 3, 4, 5, 6})}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT (X)", {TensorValue<float>({1}, {1})}), StatusCode::kInvalidArgument);
  // RFFT takes real input, IRFFT complex input.
  EXPECT_EQ(DftError("Y = DFT <onesided = 1> (X)", {cplx}), StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT <onesided = 1, inverse = 1> (X)", {real}),
            StatusCode::kInvalidArgument);
  // IRFFT's default length 2 * (1 - 1) is empty.
  EXPECT_EQ(
      DftError("Y = DFT <onesided = 1, inverse = 1> (X)", {TensorValue<float>({1, 1, 2}, {1, 0})}),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT (X, L)", {real, TensorValue<int64_t>({}, {0})}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(DftError("Y = DFT (X, L)", {real, TensorValue<int64_t>({2}, {4, 4})}),
            StatusCode::kInvalidArgument);
}

// DFT-20 reads the axis from its third input (default -2, the last signal axis).
StatusOr<std::vector<Value>> RunDft20(const std::string& node, const std::vector<Value>& inputs) {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return RunNode(*registry, node, 20, inputs);
}

TEST(DftTest, Opset20TakesTheAxisAsAnInput) {
  // x [2, 2, 1]: [[1, 2], [3, 4]] as real signals.
  const Value x = TensorValue<float>({2, 2, 1}, {1, 2, 3, 4});
  // Default axis -2 (axis 1): [3, -1] and [7, -1].
  auto out = RunDft20("Y = DFT (X)", {x});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_THAT(Elements<float>((*out)[0]),
              FloatsNear(std::vector<double>{3, 0, -1, 0, 7, 0, -1, 0}));
  // Axis 0: [4, 6] and [-2, -2].
  out = RunDft20("Y = DFT (X, , A)", {x, Value(), TensorValue<int64_t>({}, {0})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Elements<float>((*out)[0]),
              FloatsNear(std::vector<double>{4, 0, 6, 0, -2, 0, -2, 0}));
  // The input must be an int64 scalar inside [-3, -2] or [0, 1]; 'axis' is no attribute any more.
  EXPECT_FALSE(RunDft20("Y = DFT (X, , A)", {x, Value(), TensorValue<int64_t>({}, {2})}).ok());
  EXPECT_FALSE(RunDft20("Y = DFT (X, , A)", {x, Value(), TensorValue<int64_t>({}, {-1})}).ok());
  EXPECT_FALSE(RunDft20("Y = DFT (X, , A)", {x, Value(), TensorValue<int64_t>({2}, {0, 1})}).ok());
  EXPECT_FALSE(RunDft20("Y = DFT <axis = 0> (X)", {x}).ok());
}

}  // namespace
}  // namespace onnxgate::ref
