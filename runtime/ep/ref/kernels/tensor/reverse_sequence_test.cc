// Tests of ReverseSequence: time-major and batch-major layouts, trailing dims, zero lengths and
// rejected lengths and axes.
#include "runtime/ep/ref/kernels/tensor/reverse_sequence.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

std::vector<int32_t> Iota(int n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

TEST(ReverseSequenceTest, TimeMajor) {
  auto y =
      RunIdx("y = ReverseSequence <time_axis = 0, batch_axis = 1> (x, l)", 10,
             {TensorValue<int32_t>({4, 4}, Iota(16)), TensorValue<int64_t>({4}, {4, 3, 2, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(y[0]),
              ElementsAre(12, 9, 6, 3, 8, 5, 2, 7, 4, 1, 10, 11, 0, 13, 14, 15));
}

TEST(ReverseSequenceTest, BatchMajorWithTrailingDimAndZeroLength) {
  // [batch 2, time 3, features 2]; entry 0 reverses all 3 steps, entry 1 none.
  auto y = RunIdx("y = ReverseSequence <time_axis = 1, batch_axis = 0> (x, l)", 10,
                  {TensorValue<int32_t>({2, 3, 2}, Iota(12)), TensorValue<int64_t>({2}, {3, 0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(4, 5, 2, 3, 0, 1, 6, 7, 8, 9, 10, 11));
}

TEST(ReverseSequenceTest, Rejections) {
  const Value x = TensorValue<int32_t>({2, 2}, Iota(4));
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ReverseSequence(x, l)", 10, {x, TensorValue<int64_t>({2}, {3, 1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ReverseSequence(x, l)", 10, {x, TensorValue<int64_t>({3}, {1, 1, 1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = ReverseSequence <time_axis = 1, batch_axis = 1> (x, l)", 10,
                                 {x, TensorValue<int64_t>({2}, {1, 1})}),
                    kInvalidArgument);
}

TEST(ReverseSequenceTest, Opset28TakesBFloat16) {
  auto y = RunIdx("y = ReverseSequence <time_axis = 1, batch_axis = 0> (x, l)", 28,
                  {BFloat16Value({2, 3}, {1, 2, 3, 4, 5, 6}), TensorValue<int64_t>({2}, {3, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(3, 2, 1, 5, 4, 6));
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ReverseSequence <time_axis = 1, batch_axis = 0> (x, l)", 28,
                   {BFloat16Value({2, 3}, {1, 2, 3, 4, 5, 6}), TensorValue<int64_t>({2}, {4, 2})}),
      kInvalidArgument);  // longer than the time axis
}

}  // namespace
}  // namespace onnxgate::ref
