// Tests of Compress: both axes, the flattened default, negative axes (opset 11), conditions
// shorter and longer than the axis, and empty selections.
#include "runtime/ep/ref/kernels/tensor/compress.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Input() { return TensorValue<float>({3, 2}, {1, 2, 3, 4, 5, 6}); }
Value Cond(std::vector<bool> c) {
  const int64_t n = static_cast<int64_t>(c.size());
  return TensorValue<bool>({n}, c);
}

TEST(CompressTest, AlongAxes) {
  auto a0 = RunIdx("y = Compress <axis = 0> (x, c)", 9, {Input(), Cond({false, true, true})});
  ASSERT_EQ(a0.size(), 1u);
  EXPECT_THAT(DimsOf(a0[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<float>(a0[0]), ElementsAre(3, 4, 5, 6));
  auto a1 = RunIdx("y = Compress <axis = -1> (x, c)", 11, {Input(), Cond({false, true})});
  ASSERT_EQ(a1.size(), 1u);
  EXPECT_THAT(DimsOf(a1[0]), ElementsAre(3, 1));
  EXPECT_THAT(ValuesOf<float>(a1[0]), ElementsAre(2, 4, 6));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Compress <axis = -1> (x, c)", 9, {Input(), Cond({true})}),
                    kInvalidArgument);
}

TEST(CompressTest, FlattenedWithShortCondition) {
  auto y = RunIdx("y = Compress(x, c)", 11, {Input(), Cond({false, true, false, false, true})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(2, 5));
}

TEST(CompressTest, LongConditionsAndEmptySelections) {
  auto y =
      RunIdx("y = Compress <axis = 0> (x, c)", 11, {Input(), Cond({false, false, false, false})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 2));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Compress <axis = 0> (x, c)", 11,
                                 {Input(), Cond({false, false, false, true})}),
                    kInvalidArgument);
}

TEST(CompressTest, Strings) {
  auto y = RunIdx("y = Compress(x, c)", 11,
                  {TensorValue<std::string>({2}, {"a", "b"}), Cond({true, false})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("a"));
}

TEST(CompressTest, Opset28TakesBFloat16) {
  auto y = RunIdx("y = Compress <axis = 1> (x, c)", 28,
                  {BFloat16Value({2, 2}, {1, 2, 3, 4}), Cond({false, true})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 1));
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(2, 4));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Compress <axis = 2> (x, c)", 28,
                                 {BFloat16Value({2, 2}, {1, 2, 3, 4}), Cond({true})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
