// Tests of Col2Im: overlapping blocks summed (against ONNX's reference values), strides, pads and
// dilations, several channels, the non-numeric types, and the shape checks.
#include "runtime/ep/ref/kernels/nn/col2im.h"

#include <complex>
#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Shape1D(std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return TensorValue<int64_t>({n}, v);
}

std::vector<float> Iota(int n, float start = 0) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

TEST(Col2ImTest, OverlappingBlocksAreSummed) {
  // Image 3x3, blocks 2x2 at stride 1: 4 offsets x 4 positions.
  auto y = RunNn("Y = Col2Im (X, image_shape, block_shape)", 18,
                 {TensorValue<float>({1, 4, 4}, Iota(16)), Shape1D({3, 3}), Shape1D({2, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 3, 3));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(0, 5, 5, 10, 30, 20, 10, 25, 15));
}

TEST(Col2ImTest, StridesPadsAndDilations) {
  // Image 5, block 2 with dilation 2, pads 1 and 1, stride 2: blocks read 2l - 1 and 2l + 1.
  auto y = RunNn("Y = Col2Im <dilations = [2], pads = [1, 1], strides = [2]> (X, image, block)", 18,
                 {TensorValue<float>({1, 2, 3}, Iota(6, 1)), Shape1D({5}), Shape1D({2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(0, 6, 0, 8, 0));
}

TEST(Col2ImTest, BatchAndChannels) {
  // N = 2, C = 2, image 2, block 1: every value lands on its own element.
  auto y = RunNn(
      "Y = Col2Im (X, image, block)", 18,
      {TensorValue<int32_t>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), Shape1D({2}), Shape1D({1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(2, 2, 2));
  EXPECT_THAT(Elements<int32_t>(y[0]), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
}

TEST(Col2ImTest, NonNumericTypes) {
  // Image 3, block 2: element 1 receives offset 1 of block 0 and offset 0 of block 1.
  auto s = RunNn(
      "Y = Col2Im (X, image, block)", 18,
      {TensorValue<std::string>({1, 2, 2}, {"a", "b", "c", "d"}), Shape1D({3}), Shape1D({2})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(Elements<std::string>(s[0]), ElementsAre("a", "bc", "d"));
  auto b = RunNn(
      "Y = Col2Im (X, image, block)", 18,
      {TensorValue<bool>({1, 2, 2}, {false, false, true, false}), Shape1D({3}), Shape1D({2})});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(Elements<bool>(b[0]), (std::vector<bool>{false, true, false}));
  using C = std::complex<float>;
  auto c = RunNn("Y = Col2Im (X, image, block)", 18,
                 {TensorValue<C>({1, 2, 2}, {C(1, 1), C(2, 0), C(0, 3), C(4, 4)}), Shape1D({3}),
                  Shape1D({2})});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(Elements<C>(c[0]), ElementsAre(C(1, 1), C(2, 3), C(4, 4)));
  auto i8 = RunNn("Y = Col2Im (X, image, block)", 18,
                  {TensorValue<int8_t>({1, 2, 2}, {1, 100, 100, 1}), Shape1D({3}), Shape1D({2})});
  ASSERT_EQ(i8.size(), 1u);
  EXPECT_THAT(Elements<int8_t>(i8[0]), ElementsAre(1, -56, 1));  // 200 wraps
  auto h = RunNn("Y = Col2Im (X, image, block)", 18,
                 {HalfValue({1, 2, 2}, {1, 2, 3, 4}), Shape1D({3}), Shape1D({2})});
  ASSERT_EQ(h.size(), 1u);
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(1, 5, 4));
}

TEST(Col2ImTest, BadShapesAndAttributesAreErrors) {
  const Value x = TensorValue<float>({1, 4, 4}, Iota(16));
  const char* node = "Y = Col2Im (X, image, block)";
  // L does not match the number of blocks; C * K does not divide.
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({4, 4}), Shape1D({2, 2})}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({3, 3}), Shape1D({3, 1})}), kInvalidArgument);
  // image_shape and block_shape of different lengths, empty, or with non-positive values.
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({3, 3}), Shape1D({2})}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({}), Shape1D({})}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({3, 3}), Shape1D({2, 0})}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({3, -3}), Shape1D({2, 2})}),
                    kInvalidArgument);
  // A block larger than the padded image; a huge image.
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, Shape1D({3, 3}), Shape1D({4, 1})}), kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus(node, 18, {x, Shape1D({int64_t{1} << 40, int64_t{1} << 40}), Shape1D({2, 2})}),
      kInvalidArgument);
  // image_shape of the wrong type; input of the wrong rank.
  EXPECT_ERROR_CODE(RunNnStatus(node, 18, {x, TensorValue<int32_t>({2}, {3, 3}), Shape1D({2, 2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus(node, 18,
                  {TensorValue<float>({4, 4}, Iota(16)), Shape1D({3, 3}), Shape1D({2, 2})}),
      kInvalidArgument);
  // Attribute values and lengths.
  EXPECT_ERROR_CODE(RunNnStatus("Y = Col2Im <strides = [0, 1]> (X, image, block)", 18,
                                {x, Shape1D({3, 3}), Shape1D({2, 2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = Col2Im <pads = [1, 1]> (X, image, block)", 18,
                                {x, Shape1D({3, 3}), Shape1D({2, 2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = Col2Im <dilations = [1, 1, 1]> (X, image, block)", 18,
                                {x, Shape1D({3, 3}), Shape1D({2, 2})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
