// Tests of the random generators: shapes and types, ranges and moments of the draws, seeds that
// repeat, Bernoulli's extremes and its output types, and rejected attributes and inputs.
#include "runtime/ep/ref/kernels/generator/random.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class RandomTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(RandomTest, UniformStaysInRangeAndSeedsRepeat) {
  const char* node = "Y = RandomUniform <shape = [100, 10], low = -2.0, high = 3.0, seed = 1.5> ()";
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, node, 1, {}));
  ASSERT_OK_AND_ASSIGN(auto b, RunNode(registry_, node, 1, {}));
  EXPECT_THAT(DimsOf(a[0]), ElementsAre(100, 10));
  const std::vector<float> va = ValuesOf<float>(a[0]);
  double sum = 0;
  for (float v : va) {
    EXPECT_GE(v, -2.0f);
    EXPECT_LE(v, 3.0f);
    sum += v;
  }
  EXPECT_NEAR(sum / va.size(), 0.5, 0.25);  // mean 0.5, standard error 0.05
  EXPECT_EQ(va, ValuesOf<float>(b[0]));
}

TEST_F(RandomTest, NormalLikeTakesShapeAndDtype) {
  const char* node = "Y = RandomNormalLike <mean = 10.0, scale = 2.0, dtype = 11, seed = 3.0> (X)";
  Value x = TensorValue<int32_t>({50, 40}, std::vector<int32_t>(2000, 0));
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, node, 1, {x}));
  ASSERT_EQ(y[0].tensor().dtype(), DataType::kDouble);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(50, 40));
  double sum = 0, squares = 0;
  for (double v : ValuesOf<double>(y[0])) {
    sum += v;
    squares += v * v;
  }
  const double mean = sum / 2000, var = squares / 2000 - mean * mean;
  EXPECT_NEAR(mean, 10.0, 0.3);  // standard error 0.045
  EXPECT_NEAR(var, 4.0, 0.8);
}

TEST_F(RandomTest, BernoulliOfZeroAndOneIsExact) {
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = Bernoulli <dtype = 9> (P)", 15,
                                       {TensorValue<float>({4}, {0, 1, 0, 1})}));
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kBool);
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(false, true, false, true));
  ASSERT_OK_AND_ASSIGN(
      auto d, RunNode(registry_, "Y = Bernoulli (P)", 15, {TensorValue<double>({2}, {1, 0})}));
  EXPECT_THAT(ValuesOf<double>(d[0]), ElementsAre(1.0, 0.0));
}

// Bernoulli's Y is 1 with probability P (not 1 - P, as the function body of ONNX 1.12 computes):
// seeded, so the draws and the test's outcome are the same every run.
TEST_F(RandomTest, BernoulliDrawsOneWithProbabilityP) {
  Value p = TensorValue<float>({4000}, std::vector<float>(4000, 0.2f));
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = Bernoulli <seed = 7.0> (P)", 15, {p}));
  double ones = 0;
  for (float v : ValuesOf<float>(y[0])) ones += v;
  EXPECT_NEAR(ones / 4000, 0.2, 0.04);  // standard error 0.0063
}

TEST_F(RandomTest, RejectsBadAttributesAndProbabilities) {
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = RandomUniform <shape = [2], low = 2.0, high = 1.0> ()", 1, {}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RandomNormal <shape = [-1]> ()", 1, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Bernoulli (P)", 15, {TensorValue<float>({1}, {1.5f})}),
                    kInvalidArgument);
}

TEST_F(RandomTest, BFloat16FromVersion22) {
  ASSERT_OK_AND_ASSIGN(
      auto u,
      RunNode(registry_, "Y = RandomUniform <shape = [50], dtype = 16, seed = 2.0> ()", 22, {}));
  EXPECT_EQ(u[0].tensor().dtype(), DataType::kBFloat16);
  for (float v : HalfValuesOf<BFloat16>(u[0])) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LE(v, 1.0f);
  }
  Value like = BFloat16Value({2, 3}, {0, 0, 0, 0, 0, 0});
  ASSERT_OK_AND_ASSIGN(auto n, RunNode(registry_, "Y = RandomNormalLike (X)", 22, {like}));
  EXPECT_EQ(n[0].tensor().dtype(), DataType::kBFloat16);
  EXPECT_THAT(DimsOf(n[0]), ElementsAre(2, 3));
  ASSERT_OK_AND_ASSIGN(auto b,
                       RunNode(registry_, "Y = Bernoulli (P)", 22, {BFloat16Value({2}, {1, 0})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(b[0]), ElementsAre(1.0f, 0.0f));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RandomUniform <shape = [2], dtype = 16> ()", 21, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RandomNormalLike (X)", 21, {like}), kUnimplemented);
}

TEST_F(RandomTest, OutputTypeMustBeAFloat) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RandomUniform <shape = [2], dtype = 6> ()", 22, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RandomUniformLike <dtype = 7> (X)", 22,
                            {TensorValue<float>({1}, {0})}),
                    kInvalidArgument);
  // Without dtype the output takes the input's type, which must then be a float.
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = RandomUniformLike (X)", 22, {TensorValue<int32_t>({1}, {0})}),
      kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto ok, RunNode(registry_, "Y = RandomUniformLike <dtype = 1> (X)", 22,
                                        {TensorValue<int32_t>({3}, {0, 0, 0})}));
  EXPECT_EQ(ok[0].tensor().dtype(), DataType::kFloat);
  // Bernoulli also gives integers and bool, never strings.
  ASSERT_OK_AND_ASSIGN(auto i, RunNode(registry_, "Y = Bernoulli <dtype = 7> (P)", 22,
                                       {TensorValue<double>({2}, {0, 1})}));
  EXPECT_THAT(ValuesOf<int64_t>(i[0]), ElementsAre(0, 1));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Bernoulli <dtype = 8> (P)", 22, {TensorValue<double>({1}, {0})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
