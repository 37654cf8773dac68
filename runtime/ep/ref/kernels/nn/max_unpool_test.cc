// Tests of MaxUnpool: the default output shape (with pads), an explicit output_shape that adds
// a remainder at the end of each axis, float16, and rejected indices and shapes.
#include "runtime/ep/ref/kernels/nn/max_unpool.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value X() { return TensorValue<float>({1, 1, 2, 2}, {5, 6, 7, 8}); }
Value I() { return TensorValue<int64_t>({1, 1, 2, 2}, {5, 7, 13, 15}); }

TEST(MaxUnpoolTest, DefaultOutputShape) {
  auto y = RunIdx("y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i)", 11, {X(), I()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 4, 4));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 7, 0, 8));
}

TEST(MaxUnpoolTest, ExplicitOutputShapeKeepsCoordinates) {
  auto y = RunIdx("y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i, s)", 9,
                  {X(), I(), TensorValue<int64_t>({4}, {1, 1, 5, 5})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 5, 5));
  const std::vector<float> v = ValuesOf<float>(y[0]);
  EXPECT_EQ(v[1 * 5 + 1], 5);
  EXPECT_EQ(v[1 * 5 + 3], 6);
  EXPECT_EQ(v[3 * 5 + 1], 7);
  EXPECT_EQ(v[3 * 5 + 3], 8);
}

TEST(MaxUnpoolTest, PadsShrinkTheDefaultShape) {
  // 1-D: in 2, kernel 2, stride 2, pads 1 + 0 -> (2 - 1) * 2 + 2 - 1 = 3.
  auto y = RunIdx("y = MaxUnpool <kernel_shape = [2], strides = [2], pads = [1, 0]> (x, i)", 11,
                  {HalfValue({1, 1, 2}, {1.5f, 2.5f}), TensorValue<int64_t>({1, 1, 2}, {0, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 3));
  EXPECT_THAT(HalfValuesOf<Float16>(y[0]), ElementsAre(1.5f, 0, 2.5f));
}

TEST(MaxUnpoolTest, Rejections) {
  const char* node = "y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i)";
  EXPECT_ERROR_CODE(
      RunIdxStatus(node, 11, {X(), TensorValue<int64_t>({1, 1, 2, 2}, {0, 1, 2, 16})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus(node, 11, {X(), TensorValue<int64_t>({1, 1, 1, 2}, {0, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i, s)", 11,
                   {X(), I(), TensorValue<int64_t>({4}, {1, 2, 4, 4})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i, s)", 11,
                   {X(), I(), TensorValue<int64_t>({4}, {1, 1, 3, 3})}),
      kInvalidArgument);  // index 15 has no place in 3 x 3
}

TEST(MaxUnpoolTest, Opset22TakesBFloat16) {
  auto y =
      RunIdx("y = MaxUnpool <kernel_shape = [2], strides = [2]> (x, i)", 22,
             {BFloat16Value({1, 1, 2}, {1.5f, 2.5f}), TensorValue<int64_t>({1, 1, 2}, {1, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 4));
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(0, 1.5f, 2.5f, 0));
  EXPECT_ERROR_CODE(RunIdxStatus("y = MaxUnpool <kernel_shape = [2], strides = [2]> (x, i)", 22,
                                 {BFloat16Value({1, 1, 2}, {1.5f, 2.5f}),
                                  TensorValue<int64_t>({1, 1, 2}, {1, 4})}),
                    kInvalidArgument);  // index 4 is past the 4 outputs
}

}  // namespace
}  // namespace onnxgate::ref
