// Tests of OneHot: axes, negative and out-of-range indices per version, types and errors.
#include "runtime/ep/ref/kernels/tensor/one_hot.h"

#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class OneHotTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value depth3_ = TensorValue<int64_t>({}, {3});
  Value values_ = TensorValue<float>({2}, {0, 5});
};

TEST_F(OneHotTest, DefaultAxisIsLast) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = OneHot (I, D, V)", 11,
                                         {TensorValue<int64_t>({2}, {0, 2}), depth3_, values_}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(5, 0, 0, 0, 0, 5));
}

TEST_F(OneHotTest, AxisZeroAndNegativeAxis) {
  Value indices = TensorValue<int32_t>({2}, {1, 0});
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = OneHot <axis = 0> (I, D, V)", 11,
                                         {indices, depth3_, values_}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(0, 5, 5, 0, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto neg, RunNode(registry_, "Y = OneHot <axis = -2> (I, D, V)", 11,
                                         {indices, depth3_, values_}));
  EXPECT_THAT(ValuesOf<float>(neg[0]), ElementsAre(0, 5, 5, 0, 0, 0));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = OneHot <axis = 2> (I, D, V)", 11, {indices, depth3_, values_}),
      kInvalidArgument);
}

TEST_F(OneHotTest, NegativeIndicesCountFromDepthFromOpset11) {
  Value indices = TensorValue<int64_t>({3}, {-1, 3, -4});
  ASSERT_OK_AND_ASSIGN(auto v11,
                       RunNode(registry_, "Y = OneHot (I, D, V)", 11, {indices, depth3_, values_}));
  EXPECT_THAT(ValuesOf<float>(v11[0]), ElementsAre(0, 0, 5, 0, 0, 0, 0, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto v9,
                       RunNode(registry_, "Y = OneHot (I, D, V)", 9, {indices, depth3_, values_}));
  EXPECT_THAT(ValuesOf<float>(v9[0]), ElementsAre(0, 0, 0, 0, 0, 0, 0, 0, 0));
}

TEST_F(OneHotTest, FloatIndicesAndDepthTruncate) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = OneHot (I, D, V)", 11,
                               {TensorValue<float>({1}, {1.7f}), TensorValue<double>({1}, {2.9}),
                                TensorValue<std::string>({2}, {"off", "on"})}));
  EXPECT_THAT(ValuesOf<std::string>(out[0]), ElementsAre("off", "on"));
}

TEST_F(OneHotTest, BadDepthOrValues) {
  Value indices = TensorValue<int64_t>({1}, {0});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = OneHot (I, D, V)", 11,
                            {indices, TensorValue<int64_t>({}, {-1}), values_}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = OneHot (I, D, V)", 11,
                            {indices, TensorValue<int64_t>({2}, {3, 3}), values_}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = OneHot (I, D, V)", 11,
                            {indices, depth3_, TensorValue<float>({3}, {0, 1, 2})}),
                    kInvalidArgument);
}

TEST_F(OneHotTest, Opset28TakesBFloat16Values) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = OneHot (I, D, V)", 28,
                                         {TensorValue<int64_t>({2}, {2, -1}), depth3_,
                                          BFloat16Value({2}, {-1, 2.5f})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(-1, -1, 2.5f, -1, -1, 2.5f));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = OneHot (I, D, V)", 28,
              {TensorValue<int64_t>({2}, {0, 1}), depth3_, BFloat16Value({3}, {0, 1, 2})}),
      kInvalidArgument);  // values must hold two elements
}

}  // namespace
}  // namespace onnxgate::ref
