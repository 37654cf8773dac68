// Tests of the nn helpers: double round trips through every float type and broadcast indexing.
#include "runtime/provider/common/nn_util.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

TEST(NnUtilTest, DoublesRoundTripThroughEveryFloatType) {
  for (DataType t : {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16,
                     DataType::kInt8, DataType::kUint8}) {
    auto tensor = FromDoubles(t, Shape{3}, {1.5, -2, 100});
    if (t == DataType::kUint8) tensor = FromDoubles(t, Shape{3}, {1, 2, 100});
    ASSERT_TRUE(tensor.ok()) << DataTypeName(t);
    auto back = ToDoubles(*tensor);
    ASSERT_TRUE(back.ok());
    if (t == DataType::kUint8) {
      EXPECT_THAT(*back, ElementsAre(1, 2, 100));
    } else if (t == DataType::kInt8) {
      EXPECT_THAT(*back, ElementsAre(1, -2, 100));  // truncated toward zero
    } else {
      EXPECT_THAT(*back, ElementsAre(1.5, -2, 100)) << DataTypeName(t);
    }
  }
}

TEST(NnUtilTest, StringsAreNotWidened) {
  EXPECT_EQ(ToDoubles(Tensor(DataType::kString, Shape{1})).status().code(),
            StatusCode::kUnimplemented);
}

TEST(NnUtilTest, UnidirectionalBroadcastIndex) {
  auto row = UnidirectionalBroadcastIndex(Shape{3}, Shape{2, 3});
  ASSERT_TRUE(row.ok());
  EXPECT_THAT(*row, ElementsAre(0, 1, 2, 0, 1, 2));
  auto col = UnidirectionalBroadcastIndex(Shape{2, 1}, Shape{2, 3});
  ASSERT_TRUE(col.ok());
  EXPECT_THAT(*col, ElementsAre(0, 0, 0, 1, 1, 1));
  auto scalar = UnidirectionalBroadcastIndex(Shape{}, Shape{2});
  ASSERT_TRUE(scalar.ok());
  EXPECT_THAT(*scalar, ElementsAre(0, 0));
  auto middle = UnidirectionalBroadcastIndex(Shape{2, 1, 2}, Shape{2, 2, 2});
  ASSERT_TRUE(middle.ok());
  EXPECT_THAT(*middle, ElementsAre(0, 1, 0, 1, 2, 3, 2, 3));
  EXPECT_FALSE(UnidirectionalBroadcastIndex(Shape{3}, Shape{2, 2}).ok());
  EXPECT_FALSE(UnidirectionalBroadcastIndex(Shape{1, 2}, Shape{2}).ok());
  auto empty = UnidirectionalBroadcastIndex(Shape{1}, Shape{0, 4});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

}  // namespace
}  // namespace onnxgate
