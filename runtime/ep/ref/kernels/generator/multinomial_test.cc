// Tests of Multinomial: shapes and types, classes of probability 0 and 1, frequencies that follow
// the softmax of the logits, seeds that repeat, and rejected inputs and attributes.
#include "runtime/ep/ref/kernels/generator/multinomial.h"

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class MultinomialTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(MultinomialTest, ShapesTypesAndCertainClasses) {
  // Row 0 can only draw class 2, row 1 only class 0.
  Value x = TensorValue<float>({2, 3}, {-kInf, -kInf, 0.5f, 3.0f, -kInf, -kInf});
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = Multinomial <sample_size = 4> (X)", 7, {x}));
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kInt32);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 4));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(2, 2, 2, 2, 0, 0, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto y64, RunNode(registry_, "Y = Multinomial <dtype = 7> (X)", 22,
                                         {BFloat16Value({1, 2}, {-kInf, 1})}));
  EXPECT_EQ(y64[0].tensor().dtype(), DataType::kInt64);
  EXPECT_THAT(ValuesOf<int64_t>(y64[0]), ElementsAre(1));
}

TEST_F(MultinomialTest, FrequenciesFollowTheSoftmaxAndSeedsRepeat) {
  // log(1), log(3): class 1 three times as likely as class 0.
  Value x = TensorValue<double>({1, 2}, {0.0, std::log(3.0)});
  const char* node = "Y = Multinomial <sample_size = 4000, seed = 5.0> (X)";
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, node, 7, {x}));
  ASSERT_OK_AND_ASSIGN(auto b, RunNode(registry_, node, 7, {x}));
  const std::vector<int32_t> draws = ValuesOf<int32_t>(a[0]);
  EXPECT_EQ(draws, ValuesOf<int32_t>(b[0]));
  double ones = 0;
  for (int32_t d : draws) ones += d;
  EXPECT_NEAR(ones / 4000, 0.75, 0.03);  // standard error 0.007
  // Large logits do not overflow: the row is shifted by its largest value.
  ASSERT_OK_AND_ASSIGN(auto big, RunNode(registry_, "Y = Multinomial <sample_size = 8> (X)", 7,
                                         {TensorValue<float>({1, 2}, {1000.0f, -1000.0f})}));
  EXPECT_THAT(ValuesOf<int32_t>(big[0]), Each(0));
}

TEST_F(MultinomialTest, RejectsBadInputsAndAttributes) {
  Value x = TensorValue<float>({1, 2}, {0, 0});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Multinomial (X)", 7, {TensorValue<float>({2}, {0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Multinomial (X)", 7, {TensorValue<float>({1, 2}, {kNaN, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Multinomial (X)", 7, {TensorValue<float>({1, 2}, {-kInf, -kInf})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Multinomial (X)", 7, {TensorValue<float>({1, 0}, {})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Multinomial <sample_size = 0> (X)", 7, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Multinomial <dtype = 1> (X)", 7, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Multinomial (X)", 21, {BFloat16Value({1, 1}, {0})}),
                    kUnimplemented);
}

}  // namespace
}  // namespace onnxgate::ref
