// Tests of GatherND and ScatterND: element and slice tuples, batch_dims, negative indices,
// reductions with repeated tuples, and rejected shapes and versions.
#include "runtime/ep/ref/kernels/tensor/gather_scatter_nd.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Cube() { return TensorValue<int32_t>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}); }

TEST(GatherNDTest, ElementsAndSlices) {
  const Value square = TensorValue<int32_t>({2, 2}, {0, 1, 2, 3});
  auto e = RunIdx("y = GatherND(d, i)", 11, {square, TensorValue<int64_t>({2, 2}, {0, 0, 1, 1})});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_THAT(DimsOf(e[0]), ElementsAre(2));
  EXPECT_THAT(ValuesOf<int32_t>(e[0]), ElementsAre(0, 3));
  auto s = RunIdx("y = GatherND(d, i)", 11, {square, TensorValue<int64_t>({2, 1}, {1, 0})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(DimsOf(s[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<int32_t>(s[0]), ElementsAre(2, 3, 0, 1));
  auto c =
      RunIdx("y = GatherND(d, i)", 13, {Cube(), TensorValue<int64_t>({2, 1, 2}, {0, 1, 1, 0})});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(DimsOf(c[0]), ElementsAre(2, 1, 2));
  EXPECT_THAT(ValuesOf<int32_t>(c[0]), ElementsAre(2, 3, 4, 5));
}

TEST(GatherNDTest, BatchDimsAndNegativeIndices) {
  auto y = RunIdx("y = GatherND <batch_dims = 1> (d, i)", 12,
                  {Cube(), TensorValue<int64_t>({2, 1}, {1, -2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(2, 3, 4, 5));
  auto z = RunIdx("y = GatherND <batch_dims = 1> (d, i)", 13,
                  {Cube(), TensorValue<int64_t>({2, 2}, {1, 0, 0, 1})});
  ASSERT_EQ(z.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(z[0]), ElementsAre(2, 5));
}

TEST(GatherNDTest, Rejections) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GatherND(d, i)", 11, {Cube(), TensorValue<int64_t>({1, 1}, {2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GatherND(d, i)", 11, {Cube(), TensorValue<int64_t>({1, 4}, {0, 0, 0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = GatherND <batch_dims = 1> (d, i)", 11,
                                 {Cube(), TensorValue<int64_t>({2, 1}, {0, 0})}),
                    kInvalidArgument);  // batch_dims exists from GatherND-12
  EXPECT_ERROR_CODE(RunIdxStatus("y = GatherND <batch_dims = 1> (d, i)", 12,
                                 {Cube(), TensorValue<int64_t>({3, 1}, {0, 0, 0})}),
                    kInvalidArgument);  // batch dims differ
}

TEST(ScatterNDTest, ElementsAndSlices) {
  auto e = RunIdx(
      "y = ScatterND(d, i, u)", 11,
      {TensorValue<float>({8}, {1, 2, 3, 4, 5, 6, 7, 8}),
       TensorValue<int64_t>({4, 1}, {4, 3, 1, 7}), TensorValue<float>({4}, {9, 10, 11, 12})});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(e[0]), ElementsAre(1, 11, 3, 10, 9, 6, 7, 12));
  auto s = RunIdx(
      "y = ScatterND(d, i, u)", 13,
      {Cube(), TensorValue<int64_t>({1, 1}, {-1}), TensorValue<int32_t>({1, 2, 2}, {9, 9, 9, 9})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(s[0]), ElementsAre(0, 1, 2, 3, 9, 9, 9, 9));
}

TEST(ScatterNDTest, Reductions) {
  const Value d = TensorValue<float>({3}, {1, 2, 3});
  const Value i = TensorValue<int64_t>({2, 1}, {0, 0});
  const Value u = TensorValue<float>({2}, {10, 20});
  auto add = RunIdx("y = ScatterND <reduction = \"add\"> (d, i, u)", 16, {d, i, u});
  ASSERT_EQ(add.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(add[0]), ElementsAre(31, 2, 3));
  auto mul = RunIdx("y = ScatterND <reduction = \"mul\"> (d, i, u)", 16, {d, i, u});
  ASSERT_EQ(mul.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(mul[0]), ElementsAre(200, 2, 3));
  EXPECT_ERROR_CODE(RunIdxStatus("y = ScatterND <reduction = \"add\"> (d, i, u)", 13, {d, i, u}),
                    kInvalidArgument);
  auto max = RunIdx("y = ScatterND <reduction = \"max\"> (d, i, u)", 18, {d, i, u});
  ASSERT_EQ(max.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(max[0]), ElementsAre(20, 2, 3));
  const Value di = TensorValue<int32_t>({3}, {15, 2, 3});
  const Value ui = TensorValue<int32_t>({2}, {10, 20});
  auto min = RunIdx("y = ScatterND <reduction = \"min\"> (d, i, u)", 18, {di, i, ui});
  ASSERT_EQ(min.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(min[0]), ElementsAre(10, 2, 3));
  EXPECT_ERROR_CODE(RunIdxStatus("y = ScatterND <reduction = \"min\"> (d, i, u)", 16, {d, i, u}),
                    kInvalidArgument);  // min exists from opset 18
}

TEST(ScatterNDTest, RejectsUpdatesOfTheWrongShape) {
  EXPECT_ERROR_CODE(RunIdxStatus("y = ScatterND(d, i, u)", 13,
                                 {Cube(), TensorValue<int64_t>({1, 1}, {0}),
                                  TensorValue<int32_t>({1, 2}, {9, 9})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
