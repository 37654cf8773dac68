// Tests of GatherElements, ScatterElements and Scatter: both axes, negative axes and indices,
// indices smaller than data, reductions with duplicates, non-numeric types and version rules.
#include "runtime/ep/ref/kernels/tensor/gather_scatter_elements.h"

#include <cmath>
#include <complex>

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Data3x3() { return TensorValue<float>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}); }

TEST(GatherElementsTest, AxisZeroAndOne) {
  auto y0 = RunIdx("y = GatherElements <axis = 0> (d, i)", 11,
                   {Data3x3(), TensorValue<int64_t>({2, 3}, {1, 2, 0, 2, 0, 0})});
  ASSERT_EQ(y0.size(), 1u);
  EXPECT_THAT(DimsOf(y0[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(y0[0]), ElementsAre(4, 8, 3, 7, 2, 3));
  auto y1 = RunIdx(
      "y = GatherElements <axis = -1> (d, i)", 13,
      {TensorValue<int32_t>({2, 2}, {1, 2, 3, 4}), TensorValue<int32_t>({2, 2}, {0, 0, 1, 0})});
  ASSERT_EQ(y1.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(y1[0]), ElementsAre(1, 1, 4, 3));
}

TEST(GatherElementsTest, NegativeIndicesAndSmallerIndices) {
  auto y = RunIdx("y = GatherElements(d, i)", 11,
                  {Data3x3(), TensorValue<int32_t>({2, 2}, {-1, -2, 0, -3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(7, 5, 1, 2));
}

TEST(GatherElementsTest, Rejections) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GatherElements(d, i)", 11, {Data3x3(), TensorValue<int64_t>({1, 1}, {3})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = GatherElements(d, i)", 11,
                                 {Data3x3(), TensorValue<int64_t>({1, 4}, {0, 0, 0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = GatherElements(d, i)", 11,
                                 {Data3x3(), TensorValue<int64_t>({3}, {0, 0, 0})}),
                    kInvalidArgument);
}

TEST(ScatterElementsTest, AxisZeroAndOne) {
  auto y0 = RunIdx("y = ScatterElements(d, i, u)", 11,
                   {TensorValue<float>({3, 3}, std::vector<float>(9, 0)),
                    TensorValue<int64_t>({2, 3}, {1, 0, 2, 0, 2, 1}),
                    TensorValue<float>({2, 3}, {1, 1.1f, 1.2f, 2, 2.1f, 2.2f})});
  ASSERT_EQ(y0.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y0[0]), ElementsAre(2, 1.1f, 0, 1, 0, 2.2f, 0, 2.1f, 1.2f));
  auto y1 =
      RunIdx("y = ScatterElements <axis = 1> (d, i, u)", 13,
             {TensorValue<float>({1, 5}, {1, 2, 3, 4, 5}), TensorValue<int32_t>({1, 2}, {1, -2}),
              TensorValue<float>({1, 2}, {1.1f, 2.1f})});
  ASSERT_EQ(y1.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y1[0]), ElementsAre(1, 1.1f, 3, 2.1f, 5));
}

TEST(ScatterElementsTest, ReductionsAccumulateDuplicates) {
  const Value d = TensorValue<float>({1, 5}, {1, 2, 3, 4, 5});
  const Value i = TensorValue<int64_t>({1, 2}, {1, 1});
  const Value u = TensorValue<float>({1, 2}, {1.1f, 2.1f});
  auto add = RunIdx("y = ScatterElements <axis = 1, reduction = \"add\"> (d, i, u)", 16, {d, i, u});
  ASSERT_EQ(add.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(add[0]), ElementsAre(1, 5.2f, 3, 4, 5));
  auto mul = RunIdx("y = ScatterElements <axis = 1, reduction = \"mul\"> (d, i, u)", 16, {d, i, u});
  ASSERT_EQ(mul.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(mul[0])[1], ::testing::FloatEq(2 * 1.1f * 2.1f));
  auto none = RunIdx("y = ScatterElements <axis = 1> (d, i, u)", 16, {d, i, u});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(none[0]), ElementsAre(1, 2.1f, 3, 4, 5));  // the last write wins
}

TEST(ScatterElementsTest, IntegerWrapAndBoolReductions) {
  auto i = RunIdx("y = ScatterElements <reduction = \"add\"> (d, i, u)", 16,
                  {TensorValue<int8_t>({1}, {127}), TensorValue<int64_t>({1}, {0}),
                   TensorValue<int8_t>({1}, {1})});
  ASSERT_EQ(i.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(i[0]), ElementsAre(-128));
  auto b = RunIdx("y = ScatterElements <reduction = \"mul\"> (d, i, u)", 16,
                  {TensorValue<bool>({2}, {true, true}), TensorValue<int64_t>({1}, {1}),
                   TensorValue<bool>({1}, {false})});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_THAT(ValuesOf<bool>(b[0]), ElementsAre(true, false));
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ScatterElements <reduction = \"add\"> (d, i, u)", 16,
                   {TensorValue<std::string>({1}, {"a"}), TensorValue<int64_t>({1}, {0}),
                    TensorValue<std::string>({1}, {"b"})}),
      kInvalidArgument);
}

TEST(ScatterElementsTest, MaxAndMinReductionsFromOpset18) {
  const Value d = TensorValue<float>({1, 5}, {1, 2, 3, 4, 5});
  const Value i = TensorValue<int64_t>({1, 3}, {1, 1, 3});
  const Value u = TensorValue<float>({1, 3}, {1.5f, 0.5f, NAN});
  auto max = RunIdx("y = ScatterElements <axis = 1, reduction = \"max\"> (d, i, u)", 18, {d, i, u});
  ASSERT_EQ(max.size(), 1u);
  const std::vector<float> mx = ValuesOf<float>(max[0]);
  EXPECT_THAT(std::vector<float>(mx.begin(), mx.begin() + 3), ElementsAre(1, 2, 3));
  EXPECT_TRUE(std::isnan(mx[3]));  // NaN wins, as numpy.maximum
  auto min = RunIdx("y = ScatterElements <axis = 1, reduction = \"min\"> (d, i, u)", 18, {d, i, u});
  ASSERT_EQ(min.size(), 1u);
  EXPECT_EQ(ValuesOf<float>(min[0])[1], 0.5f);
  auto b = RunIdx("y = ScatterElements <reduction = \"max\"> (d, i, u)", 18,
                  {BFloat16Value({2}, {1, -3}), TensorValue<int64_t>({2}, {1, 0}),
                   BFloat16Value({2}, {-2, 4})});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(b[0]), ElementsAre(4, -2));
  auto bools = RunIdx("y = ScatterElements <reduction = \"min\"> (d, i, u)", 18,
                      {TensorValue<bool>({2}, {true, true}), TensorValue<int64_t>({1}, {1}),
                       TensorValue<bool>({1}, {false})});
  ASSERT_EQ(bools.size(), 1u);
  EXPECT_THAT(ValuesOf<bool>(bools[0]), ElementsAre(true, false));
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ScatterElements <axis = 1, reduction = \"max\"> (d, i, u)", 16, {d, i, u}),
      kInvalidArgument);  // max exists from opset 18
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ScatterElements <axis = 1, reduction = \"avg\"> (d, i, u)", 18, {d, i, u}),
      kInvalidArgument);
  const Value c = Value::FromTensor(Tensor::FromVector<std::complex<float>>(Shape({1}), {{1, 1}}));
  EXPECT_ERROR_CODE(RunIdxStatus("y = ScatterElements <reduction = \"max\"> (d, i, u)", 18,
                                 {c, TensorValue<int64_t>({1}, {0}), c}),
                    kInvalidArgument);  // complex numbers have no order
}

TEST(ScatterElementsTest, VersionRules) {
  const Value d = TensorValue<float>({3}, {1, 2, 3});
  const Value u = TensorValue<float>({1}, {9});
  // Scatter-9 has no negative indices; ScatterElements-11 does.
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Scatter(d, i, u)", 9, {d, TensorValue<int64_t>({1}, {-1}), u}),
      kInvalidArgument);
  auto y = RunIdx("y = Scatter(d, i, u)", 10, {d, TensorValue<int64_t>({1}, {2}), u});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 2, 9));
  EXPECT_ERROR_CODE(RunIdxStatus("y = ScatterElements <reduction = \"add\"> (d, i, u)", 13,
                                 {d, TensorValue<int64_t>({1}, {0}), u}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ScatterElements(d, i, u)", 13, {d, TensorValue<int64_t>({2}, {0, 1}), u}),
      kInvalidArgument);  // updates and indices differ in shape
}

}  // namespace
}  // namespace onnxgate::ref
