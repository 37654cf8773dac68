// Tests of Mod: the sign rule of integers, fmod for floats, and opset 28.
#include "runtime/ep/ref/kernels/math/mod.h"

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

constexpr float kInf = std::numeric_limits<float>::infinity();

class ModTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(ModTest, IntegerModTakesTheSignOfTheDivisor) {
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

TEST_F(ModTest, FloatModNeedsFmod) {
  std::vector<Value> in = {TensorValue<float>({2}, {5.5f, -5.5f}), TensorValue<float>({}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Mod(A, B)", 13, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Mod <fmod = 1> (A, B)", 13, in));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1.5f, -1.5f));
}

TEST_F(ModTest, FloatModWithoutFmodFromOpset28) {
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

}  // namespace
}  // namespace onnxgate::ref
