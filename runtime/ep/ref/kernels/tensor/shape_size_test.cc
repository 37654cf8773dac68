// Tests of Shape (with Shape-15's start/end), Size and Range.
#include "runtime/ep/ref/kernels/tensor/shape_size.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/generator/range.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::IsEmpty;
using ::testing::Pointwise;

class ShapeSizeTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value x_ = TensorValue<float>({2, 3, 4}, std::vector<float>(24, 0.0f));
};

TEST_F(ShapeSizeTest, ShapeOfAnyTensor) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Shape(X)", 1, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(2, 3, 4));
  ASSERT_OK_AND_ASSIGN(
      auto scalar, RunNode(registry_, "Y = Shape(X)", 13, {TensorValue<std::string>({}, {"s"})}));
  EXPECT_THAT(DimsOf(scalar[0]), ElementsAre(0));
}

TEST_F(ShapeSizeTest, Shape15StartAndEndClamp) {
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, "Y = Shape <start = 1> (X)", 15, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(a[0]), ElementsAre(3, 4));
  ASSERT_OK_AND_ASSIGN(auto b,
                       RunNode(registry_, "Y = Shape <start = -2, end = -1> (X)", 15, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(b[0]), ElementsAre(3));
  ASSERT_OK_AND_ASSIGN(auto c,
                       RunNode(registry_, "Y = Shape <start = -10, end = 10> (X)", 15, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(c[0]), ElementsAre(2, 3, 4));
  ASSERT_OK_AND_ASSIGN(auto d, RunNode(registry_, "Y = Shape <start = 2, end = 1> (X)", 15, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(d[0]), IsEmpty());
}

TEST_F(ShapeSizeTest, SizeIsAScalar) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Size(X)", 13, {x_}));
  EXPECT_THAT(DimsOf(out[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(24));
}

TEST_F(ShapeSizeTest, RangeCountsUpAndDown) {
  ASSERT_OK_AND_ASSIGN(auto up, RunNode(registry_, "Y = Range(S, L, D)", 11,
                                        {TensorValue<float>({}, {1}), TensorValue<float>({}, {2}),
                                         TensorValue<float>({}, {0.3f})}));
  EXPECT_THAT(ValuesOf<float>(up[0]),
              Pointwise(FloatNear(1e-6f), std::vector<float>{1, 1.3f, 1.6f, 1.9f}));
  ASSERT_OK_AND_ASSIGN(auto down,
                       RunNode(registry_, "Y = Range(S, L, D)", 11,
                               {TensorValue<int32_t>({}, {10}), TensorValue<int32_t>({}, {6}),
                                TensorValue<int32_t>({}, {-3})}));
  EXPECT_THAT(ValuesOf<int32_t>(down[0]), ElementsAre(10, 7));
  ASSERT_OK_AND_ASSIGN(auto none,
                       RunNode(registry_, "Y = Range(S, L, D)", 11,
                               {TensorValue<int64_t>({}, {5}), TensorValue<int64_t>({}, {1}),
                                TensorValue<int64_t>({}, {1})}));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(0));
  // Near the int64 limits the length is still exact.
  ASSERT_OK_AND_ASSIGN(
      auto edge, RunNode(registry_, "Y = Range(S, L, D)", 11,
                         {TensorValue<int64_t>({}, {INT64_MAX - 2}),
                          TensorValue<int64_t>({}, {INT64_MAX}), TensorValue<int64_t>({}, {1})}));
  EXPECT_THAT(ValuesOf<int64_t>(edge[0]), ElementsAre(INT64_MAX - 2, INT64_MAX - 1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 11,
                            {TensorValue<int64_t>({}, {0}), TensorValue<int64_t>({}, {5}),
                             TensorValue<int64_t>({}, {0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 11,
                            {TensorValue<double>({}, {0}), TensorValue<double>({}, {1e300}),
                             TensorValue<double>({}, {1e-300})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
