// Tests of the broadcasting helpers.
#include "runtime/provider/common/broadcast.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

TEST(BroadcastTest, ShapeOfSeveralInputs) {
  auto s = BroadcastShapeOf({Shape{2, 1, 3}, Shape{4, 1}, Shape{}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (Shape{2, 4, 3}));
  auto zero = BroadcastShapeOf({Shape{0, 1}, Shape{1, 5}});
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(*zero, (Shape{0, 5}));
  EXPECT_FALSE(BroadcastShapeOf({Shape{2}, Shape{3}}).ok());
}

TEST(BroadcastTest, StridesAreZeroOnRepeatedDims) {
  EXPECT_THAT(BroadcastStrides(Shape{3, 1}, Shape{2, 3, 4}), ElementsAre(0, 1, 0));
  EXPECT_THAT(BroadcastStrides(Shape{}, Shape{2}), ElementsAre(0));
  EXPECT_THAT(BroadcastStrides(Shape{2, 3}, Shape{2, 3}), ElementsAre(3, 1));
}

TEST(BroadcastTest, WalkVisitsEveryOutputElementInOrder) {
  std::vector<int64_t> a_offsets, b_offsets, order;
  ForEachBroadcast(Shape{2, 3}, {Shape{2, 1}, Shape{3}}, [&](int64_t i, const int64_t* off) {
    order.push_back(i);
    a_offsets.push_back(off[0]);
    b_offsets.push_back(off[1]);
  });
  EXPECT_THAT(order, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(a_offsets, ElementsAre(0, 0, 0, 1, 1, 1));
  EXPECT_THAT(b_offsets, ElementsAre(0, 1, 2, 0, 1, 2));
  int visits = 0;
  ForEachBroadcast(Shape{}, {Shape{}}, [&](int64_t, const int64_t*) { ++visits; });
  EXPECT_EQ(visits, 1);
  ForEachBroadcast(Shape{3, 0}, {Shape{3, 0}}, [&](int64_t, const int64_t*) { ++visits; });
  EXPECT_EQ(visits, 1);
}

TEST(BroadcastTest, LegacyRuleAlignsBAtTheAxis) {
  LegacyBroadcast lb;
  lb.enabled = true;
  lb.broadcast = 1;
  Tensor a(DataType::kFloat, Shape{2, 3, 4, 5});
  auto suffix = lb.AlignB(a, Tensor(DataType::kFloat, Shape{4, 5}));
  ASSERT_TRUE(suffix.ok());
  EXPECT_EQ(suffix->shape(), (Shape{1, 1, 4, 5}));
  lb.axis = 1;
  auto mid = lb.AlignB(a, Tensor(DataType::kFloat, Shape{3, 4}));
  ASSERT_TRUE(mid.ok());
  EXPECT_EQ(mid->shape(), (Shape{1, 3, 4, 1}));
  EXPECT_FALSE(lb.AlignB(a, Tensor(DataType::kFloat, Shape{4, 5})).ok());
  lb.enabled = false;
  auto off = lb.AlignB(a, Tensor(DataType::kFloat, Shape{4, 5}));
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->shape(), (Shape{4, 5}));
}

}  // namespace
}  // namespace onnxgate
