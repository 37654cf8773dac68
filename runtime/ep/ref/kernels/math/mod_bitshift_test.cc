// Tests of Mod, BitShift, PRelu, Shrink, IsNaN and IsInf.
#include "runtime/ep/ref/kernels/math/mod_bitshift.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/math/activation_extra.h"
#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
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
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = PRelu(X, S)", 6,
                            {TensorValue<float>({1}, {-1}), TensorValue<float>({1}, {1})}),
                    kUnimplemented);
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

}  // namespace
}  // namespace onnxgate::ref
