// Tests of Unique: the spec's four examples, optional outputs, strings, NaN and empty input.
#include "runtime/ep/ref/kernels/tensor/unique.h"

#include <cmath>
#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class UniqueTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(UniqueTest, UnsortedFlat) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y, I, V, C = Unique <sorted = 0> (X)", 11,
                                         {TensorValue<int64_t>({6}, {2, 1, 1, 3, 4, 3})}));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(2, 1, 3, 4));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(0, 1, 3, 4));
  EXPECT_THAT(ValuesOf<int64_t>(out[2]), ElementsAre(0, 1, 1, 2, 3, 2));
  EXPECT_THAT(ValuesOf<int64_t>(out[3]), ElementsAre(1, 2, 2, 1));
}

TEST_F(UniqueTest, SortedFlattensMatrices) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y, I, V, C = Unique (X)", 11,
                                         {TensorValue<float>({2, 2}, {1, 3, 2, 3})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1, 2, 3));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(0, 2, 1));
  EXPECT_THAT(ValuesOf<int64_t>(out[2]), ElementsAre(0, 2, 1, 2));
  EXPECT_THAT(ValuesOf<int64_t>(out[3]), ElementsAre(1, 1, 2));
}

TEST_F(UniqueTest, RowsAlongAxisZero) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y, I, V, C = Unique <axis = 0> (X)", 11,
                               {TensorValue<int32_t>({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, 0, 0, 2, 3, 4));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(0, 2));
  EXPECT_THAT(ValuesOf<int64_t>(out[2]), ElementsAre(0, 0, 1));
  EXPECT_THAT(ValuesOf<int64_t>(out[3]), ElementsAre(2, 1));
}

TEST_F(UniqueTest, SlicesAlongAMiddleAxis) {
  // The spec's example 4, with a negative axis.
  std::vector<float> x = {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1};
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y, I, V, C = Unique <axis = -2> (X)", 11,
                                         {TensorValue<float>({2, 4, 2}, x)}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(1, 0, 2));
  EXPECT_THAT(ValuesOf<int64_t>(out[2]), ElementsAre(1, 0, 2, 0));
  EXPECT_THAT(ValuesOf<int64_t>(out[3]), ElementsAre(2, 1, 1));
}

TEST_F(UniqueTest, OnlyTheOutputsTheNodeNames) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Unique (X)", 11,
                                         {TensorValue<std::string>({4}, {"b", "a", "b", "c"})}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(out[0]), ElementsAre("a", "b", "c"));
}

TEST_F(UniqueTest, NanIsOneValueAboveTheNumbers) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y, I, V, C = Unique (X)", 11,
                                         {TensorValue<double>({4}, {NAN, 1, NAN, -1})}));
  std::vector<double> y = ValuesOf<double>(out[0]);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], -1);
  EXPECT_EQ(y[1], 1);
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_THAT(ValuesOf<int64_t>(out[3]), ElementsAre(1, 1, 2));
}

TEST_F(UniqueTest, EmptyInputAndBadAxis) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y, I, V, C = Unique (X)", 11,
                                         {TensorValue<float>({0, 3}, {})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(0));
  EXPECT_THAT(DimsOf(out[2]), ElementsAre(0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Unique <axis = 2> (X)", 11,
                            {TensorValue<float>({2, 2}, {1, 2, 3, 4})}),
                    kInvalidArgument);
}

TEST_F(UniqueTest, Opset28TakesBFloat16) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y, I, V, C = Unique (X)", 28,
                                         {BFloat16Value({4}, {2, -1, 2, 0.5f})}));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(-1, 0.5f, 2));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(1, 3, 0));
  EXPECT_THAT(ValuesOf<int64_t>(out[2]), ElementsAre(2, 0, 2, 1));
  EXPECT_THAT(ValuesOf<int64_t>(out[3]), ElementsAre(1, 1, 2));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Unique <axis = 1> (X)", 28, {BFloat16Value({4}, {2, -1, 2, 0.5f})}),
      kInvalidArgument);  // axis out of range
}

}  // namespace
}  // namespace onnxgate::ref
