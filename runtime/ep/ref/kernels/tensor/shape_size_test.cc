// Tests of Shape (with Shape-15's start/end) and Size.
#include "runtime/ep/ref/kernels/tensor/shape_size.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

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

}  // namespace
}  // namespace onnxgate::ref
