// Tests of MelWeightMatrix: band edges and triangles worked out by hand, bands narrower than a
// bin, output_datatype, and rejected inputs.
#include "runtime/ep/ref/kernels/signal/mel_weight_matrix.h"

#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"
#include "runtime/ep/ref/kernels/signal/signal_test_helpers.h"

namespace onnxgate::ref {
namespace {

std::vector<Value> MelInputs(int32_t mel_bins, int32_t dft_length, int32_t sample_rate, float lower,
                             float upper) {
  return {TensorValue<int32_t>({}, {mel_bins}), TensorValue<int32_t>({}, {dft_length}),
          TensorValue<int32_t>({}, {sample_rate}), TensorValue<float>({}, {lower}),
          TensorValue<float>({}, {upper})};
}

constexpr const char* kNode = "Y = MelWeightMatrix (M, D, R, L, U)";

StatusCode MelError(const std::string& node, const std::vector<Value>& inputs) {
  auto out = RunSignalNode(node, inputs);
  return out.ok() ? StatusCode::kOk : out.status().code();
}

TEST(MelWeightMatrixTest, OneTriangularBand) {
  // 0 to 6300 Hz is mel 0 to 2595 (log10(1 + 6300 / 700) = 1). One band has three edges,
  // 2595 / 3 mel apart: 0, 700 (10^(1/3) - 1) = 808.1 and 700 (10^(2/3) - 1) = 2549.1 Hz,
  // i.e. bins floor(64 f / 16000) = 0, 3 and 10 of the 63 / 2 + 1 = 32 bins. The band rises
  // j / 3 over bins 0..3 and falls (10 - j) / 7 over bins 3..9.
  auto out = RunSignalNode(kNode, MelInputs(1, 63, 16000, 0, 6300));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{32, 1}));
  std::vector<double> expected(32, 0.0);
  for (int j = 0; j <= 3; ++j) expected[j] = j / 3.0;
  for (int j = 3; j < 10; ++j) expected[j] = (10 - j) / 7.0;
  EXPECT_THAT(Elements<float>((*out)[0]), FloatsNear(expected));
}

TEST(MelWeightMatrixTest, BandsNarrowerThanABinPeakAtTheirCentre) {
  // 8 bands over 0..4096 Hz, dft_length 16, 8192 Hz: mel(4096) = 2168.8, edges 216.88 mel apart
  // at 0, 148, 328, 547, 811, 1132, 1520, 1992, 2563, 3255 Hz, i.e. bins floor(17 f / 8192) =
  // 0, 0, 0, 1, 1, 2, 3, 4, 5, 6. Every band spans at most one bin per side, so band i is 1 at
  // its centre bin edge[i + 1] and 0 elsewhere (a falling side of one bin starts at the centre).
  auto out = RunSignalNode(kNode, MelInputs(8, 16, 8192, 0, 4096));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{9, 8}));
  std::vector<double> expected(72, 0.0);
  auto at = [&](int bin, int band) -> double& { return expected[bin * 8 + band]; };
  at(0, 0) = 1;  // edges 0, 0, 0: centre only
  at(0, 1) = 1;  // edges 0, 0, 1: centre, then (1 - 0) / 1 at bin 0
  at(1, 2) = 1;  // edges 0, 1, 1: rises 0 at bin 0, 1 at bin 1
  at(1, 3) = 1;  // edges 1, 1, 2
  at(2, 4) = 1;  // edges 1, 2, 3: rises to 1 at bin 2, falls (3 - 2) / 1 = 1 at bin 2
  at(3, 5) = 1;  // edges 2, 3, 4
  at(4, 6) = 1;  // edges 3, 4, 5
  at(5, 7) = 1;  // edges 4, 5, 6
  EXPECT_THAT(Elements<float>((*out)[0]), FloatsNear(expected));
}

TEST(MelWeightMatrixTest, OutputDatatypeAndInputTypes) {
  // 11 = DOUBLE; int64 lengths and double edges.
  auto out = RunSignalNode("Y = MelWeightMatrix <output_datatype = 11> (M, D, R, L, U)",
                           {TensorValue<int64_t>({}, {1}), TensorValue<int64_t>({}, {63}),
                            TensorValue<int64_t>({}, {16000}), TensorValue<double>({}, {0}),
                            TensorValue<double>({}, {6300})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const std::vector<double> y = Elements<double>((*out)[0]);
  ASSERT_EQ(y.size(), 32u);
  EXPECT_NEAR(y[1], 1.0 / 3, 1e-15);
  EXPECT_NEAR(y[4], 6.0 / 7, 1e-15);
  // 6 = INT32: only the peaks survive truncation.
  out = RunSignalNode("Y = MelWeightMatrix <output_datatype = 6> (M, D, R, L, U)",
                      MelInputs(1, 63, 16000, 0, 6300));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<int32_t> expected(32, 0);
  expected[3] = 1;
  EXPECT_EQ(Elements<int32_t>((*out)[0]), expected);
}

TEST(MelWeightMatrixTest, RejectsBadInputs) {
  EXPECT_EQ(MelError(kNode, MelInputs(0, 16, 8192, 0, 4096)), StatusCode::kInvalidArgument);
  EXPECT_EQ(MelError(kNode, MelInputs(8, 0, 8192, 0, 4096)), StatusCode::kInvalidArgument);
  EXPECT_EQ(MelError(kNode, MelInputs(8, 16, 0, 0, 4096)), StatusCode::kInvalidArgument);
  EXPECT_EQ(MelError(kNode, MelInputs(8, 16, 8192, -1, 4096)), StatusCode::kInvalidArgument);
  EXPECT_EQ(MelError(kNode, MelInputs(8, 16, 8192, 4096, 4096)), StatusCode::kInvalidArgument);
  EXPECT_EQ(MelError(kNode, MelInputs(8, 16, 8192, 0, std::nanf(""))),
            StatusCode::kInvalidArgument);
  // Edges up to 8192 Hz fall on bins past the 9 of a 16-point spectrum at 8192 Hz.
  EXPECT_EQ(MelError(kNode, MelInputs(8, 16, 8192, 0, 8192)), StatusCode::kInvalidArgument);
  EXPECT_EQ(MelError("Y = MelWeightMatrix <output_datatype = 9> (M, D, R, L, U)",
                     MelInputs(8, 16, 8192, 0, 4096)),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
