// Tests of Mod, BitShift, PRelu, Shrink, IsNaN and IsInf.
#include "runtime/ep/ref/kernels/math/mod_bitshift.h"

#include <cmath>
#include <limits>
#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/math/activation_extra.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class ModBitShiftTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(ModBitShiftTest, IntegerModTakesTheSignOfTheDivisor) {
  std::vector<Value> in = {TensorValue<int32_t>({4}, {7, -7, 7, -7}),
                           TensorValue<int32_t>({4}, {3, 3, -3, -3})};
  ASSERT_OK_AND_ASSIGN(auto py, RunNode(registry_, "C = Mod(A, B)", 13, in));
  EXPECT_THAT(ValuesOf<int32_t>(py[0]), ElementsAre(1, 2, -2, -1));
  ASSERT_OK_AND_ASSIGN(auto c, RunNode(registry_, "C = Mod <fmod = 1> (A, B)", 10, in));
  EXPECT_THAT(ValuesOf<int32_t>(c[0]), ElementsAre(1, -1, 1, -1));
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Mod(A, B)", 13, {in[0], TensorValue<int32_t>({}, {0})}),
                    kInvalidArgument);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  ASSERT_OK_AND_ASSIGN(
      auto edge, RunNode(registry_, "C = Mod(A, B)", 13,
                         {TensorValue<int64_t>({1}, {kMin}), TensorValue<int64_t>({1}, {-1})}));
  EXPECT_THAT(ValuesOf<int64_t>(edge[0]), ElementsAre(0));
}

TEST_F(ModBitShiftTest, FloatModNeedsFmod) {
  std::vector<Value> in = {TensorValue<float>({2}, {5.5f, -5.5f}), TensorValue<float>({}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Mod(A, B)", 13, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Mod <fmod = 1> (A, B)", 13, in));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1.5f, -1.5f));
}

TEST_F(ModBitShiftTest, BitShiftBothDirectionsAndWideShifts) {
  std::vector<Value> in = {TensorValue<uint8_t>({3}, {1, 128, 255}),
                           TensorValue<uint8_t>({3}, {7, 1, 8})};
  ASSERT_OK_AND_ASSIGN(auto l,
                       RunNode(registry_, "Z = BitShift <direction = \"LEFT\"> (X, Y)", 11, in));
  EXPECT_THAT(ValuesOf<uint8_t>(l[0]), ElementsAre(128, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto r,
                       RunNode(registry_, "Z = BitShift <direction = \"RIGHT\"> (X, Y)", 11, in));
  EXPECT_THAT(ValuesOf<uint8_t>(r[0]), ElementsAre(0, 64, 0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Z = BitShift <direction = \"UP\"> (X, Y)", 11, in),
                    kInvalidArgument);
}

TEST_F(ModBitShiftTest, PReluBroadcastsTheSlope) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = PRelu(X, S)", 16,
                                         {TensorValue<float>({2, 2}, {-1, 2, -3, 4}),
                                          TensorValue<float>({2}, {0.5f, 0.25f})}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(-0.5f, 2, -1.5f, 4));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = PRelu(X, S)", 16,
              {TensorValue<float>({2}, {-1, 2}), TensorValue<float>({2, 2}, {1, 1, 1, 1})}),
      kInvalidArgument);
}

TEST_F(ModBitShiftTest, LegacyPReluSlopes) {
  Value x = TensorValue<float>({1, 2, 2}, {-1, 2, -3, -4});
  for (int opset : {1, 6}) {
    ASSERT_OK_AND_ASSIGN(auto one, RunNode(registry_, "Y = PRelu(X, S)", opset,
                                           {x, TensorValue<float>({1}, {0.5f})}));
    EXPECT_THAT(ValuesOf<float>(one[0]), ElementsAre(-0.5f, 2, -1.5f, -2));
    // One value per channel (dim 1 of X).
    ASSERT_OK_AND_ASSIGN(auto channel, RunNode(registry_, "Y = PRelu(X, S)", opset,
                                               {x, TensorValue<float>({2}, {0.5f, 0.25f})}));
    EXPECT_THAT(ValuesOf<float>(channel[0]), ElementsAre(-0.5f, 2, -0.75f, -1));
    ASSERT_OK_AND_ASSIGN(auto same, RunNode(registry_, "Y = PRelu(X, S)", opset,
                                            {x, TensorValue<float>({1, 2, 2}, {1, 1, 2, 0})}));
    EXPECT_THAT(ValuesOf<float>(same[0]), ElementsAre(-1, 2, -6, 0));
    // A slope that broadcasts from 7 on but fits none of the three legacy forms.
    EXPECT_ERROR_CODE(
        RunNode(registry_, "Y = PRelu(X, S)", opset, {x, TensorValue<float>({2, 1}, {1, 2})}),
        kInvalidArgument);
  }
}

TEST_F(ModBitShiftTest, ShrinkOfFloatsAndIntegers) {
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, "Y = Shrink <lambd = 1.0, bias = 0.5> (X)", 9,
                                       {TensorValue<float>({5}, {-2, -1, 0, 1, 2})}));
  EXPECT_THAT(ValuesOf<float>(f[0]), ElementsAre(-1.5f, 0, 0, 0, 1.5f));
  ASSERT_OK_AND_ASSIGN(auto i, RunNode(registry_, "Y = Shrink <lambd = 1.0, bias = 1.0> (X)", 9,
                                       {TensorValue<int8_t>({3}, {-5, 1, 5})}));
  EXPECT_THAT(ValuesOf<int8_t>(i[0]), ElementsAre(-4, 0, 4));
}

TEST_F(ModBitShiftTest, IsNaNAndIsInf) {
  Value x = TensorValue<float>({4}, {1, kNaN, kInf, -kInf});
  ASSERT_OK_AND_ASSIGN(auto nan, RunNode(registry_, "Y = IsNaN(X)", 13, {x}));
  EXPECT_THAT(ValuesOf<bool>(nan[0]), ElementsAre(false, true, false, false));
  ASSERT_OK_AND_ASSIGN(auto inf, RunNode(registry_, "Y = IsInf(X)", 10, {x}));
  EXPECT_THAT(ValuesOf<bool>(inf[0]), ElementsAre(false, false, true, true));
  ASSERT_OK_AND_ASSIGN(auto neg,
                       RunNode(registry_, "Y = IsInf <detect_positive = 0> (X)", 10, {x}));
  EXPECT_THAT(ValuesOf<bool>(neg[0]), ElementsAre(false, false, false, true));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = IsInf(X)", 10, {HalfValue({1}, {1})}), kUnimplemented);
}

TEST_F(ModBitShiftTest, FloatModWithoutFmodFromOpset28) {
  std::vector<Value> in = {TensorValue<double>({10}, {5, -5, 5, -5, 0, -0.0, kInf, 3, 3, -3}),
                           TensorValue<double>({10}, {3, 3, -3, -3, -2, 2, 2, 0, kInf, kInf})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Mod(A, B)", 13, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Mod(A, B)", 28, in));
  std::vector<double> y = ValuesOf<double>(out[0]);
  EXPECT_EQ(y[0], 2);
  EXPECT_EQ(y[1], 1);
  EXPECT_EQ(y[2], -1);
  EXPECT_EQ(y[3], -2);
  EXPECT_TRUE(y[4] == 0 && std::signbit(y[4]));  // the sign of B
  EXPECT_TRUE(y[5] == 0 && !std::signbit(y[5]));
  EXPECT_TRUE(std::isnan(y[6]));  // infinite A
  EXPECT_TRUE(std::isnan(y[7]));  // zero B
  EXPECT_EQ(y[8], 3);             // same signs: A
  EXPECT_EQ(y[9], kInf);          // other signs: B
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, "C = Mod(A, B)", 28,
                                       {HalfValue({2}, {-7, 7}), HalfValue({2}, {2, -2})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(1, -1));
  std::vector<Value> neg = {TensorValue<float>({1}, {-7}), TensorValue<float>({1}, {2})};
  ASSERT_OK_AND_ASSIGN(auto c, RunNode(registry_, "C = Mod <fmod = 1> (A, B)", 28, neg));
  EXPECT_THAT(ValuesOf<float>(c[0]), ElementsAre(-1));
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Mod <fmod = 2> (A, B)", 28, in), kInvalidArgument);
}

TEST_F(ModBitShiftTest, SignedBitShiftFromOpset28) {
  std::vector<Value> right = {TensorValue<int8_t>({6}, {-8, -1, 8, -128, -5, 5}),
                              TensorValue<int8_t>({6}, {1, 3, 1, 7, -1, 8})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Z = BitShift <direction = \"RIGHT\"> (X, Y)", 27, right),
                    kUnimplemented);
  const std::string shift_right = "Z = BitShift <direction = \"RIGHT\"> (X, Y)";
  ASSERT_OK_AND_ASSIGN(auto r, RunNode(registry_, shift_right, 28, right));
  // Arithmetic shifts; a negative or too large shift leaves only the sign extension.
  EXPECT_THAT(ValuesOf<int8_t>(r[0]), ElementsAre(-4, -1, 4, -1, -1, 0));
  ASSERT_OK_AND_ASSIGN(auto l, RunNode(registry_, "Z = BitShift <direction = \"LEFT\"> (X, Y)", 28,
                                       {TensorValue<int8_t>({5}, {64, -1, 1, -5, 3}),
                                        TensorValue<int8_t>({5}, {1, 7, 8, -1, 0})}));
  EXPECT_THAT(ValuesOf<int8_t>(l[0]), ElementsAre(-128, -128, 0, 0, 3));
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  ASSERT_OK_AND_ASSIGN(auto w, RunNode(registry_, "Z = BitShift <direction = \"RIGHT\"> (X, Y)", 28,
                                       {TensorValue<int64_t>({3}, {kMin, kMin, -3}),
                                        TensorValue<int64_t>({3}, {63, 64, 1})}));
  EXPECT_THAT(ValuesOf<int64_t>(w[0]), ElementsAre(-1, -1, -2));
  ASSERT_OK_AND_ASSIGN(
      auto u, RunNode(registry_, "Z = BitShift <direction = \"LEFT\"> (X, Y)", 28,
                      {TensorValue<uint16_t>({2}, {1, 1}), TensorValue<uint16_t>({2}, {15, 16})}));
  EXPECT_THAT(ValuesOf<uint16_t>(u[0]), ElementsAre(0x8000, 0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Z = BitShift <direction = \"UP\"> (X, Y)", 28, right),
                    kInvalidArgument);
}

TEST_F(ModBitShiftTest, SwiGLUGatesTheValueWithSwish) {
  std::vector<Value> in = {TensorValue<float>({2}, {1, -1}), TensorValue<float>({2}, {2, 3})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = SwiGLU(A, B)", 27, in), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = SwiGLU(A, B)", 28, in));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(::testing::FloatNear(1.4621172f, 1e-6f),
                                                 ::testing::FloatNear(-0.8068243f, 1e-6f)));
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, "Y = SwiGLU <alpha = 0.0> (A, B)", 28, in));
  EXPECT_THAT(ValuesOf<float>(a[0]), ElementsAre(1, -1.5f));
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, "Y = SwiGLU(A, B)", 28,
                                       {HalfValue({1}, {0}), HalfValue({1}, {5})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = SwiGLU(A, B)", 28,
                            {TensorValue<float>({2}, {1, 2}), TensorValue<float>({1}, {1})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
