// Tests of the element movers: strided and contiguous copies for the byte-sized FLOAT8 types and
// the packed sub-byte types, whose elements share bytes.
#include "runtime/provider/common/strided_copy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

std::vector<int32_t> IntsOf(const Tensor& t) {
  std::vector<int32_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.SubByteInt(i));
  return v;
}

TEST(StridedCopyTest, TransposesPackedInt4ElementByElement) {
  // [2, 3] -> [3, 2]: walk the output with the input's strides swapped.
  auto x = Tensor::FromSubByteInts(DataType::kInt4, Shape({2, 3}), {1, -2, 3, -4, 5, -8});
  ASSERT_TRUE(x.ok());
  Tensor y(DataType::kInt4, Shape({3, 2}));
  CopyStrided(*x, {3, 2}, {1, 3}, 0, &y);
  EXPECT_THAT(IntsOf(y), ElementsAre(1, -4, -2, 5, 3, -8));
}

TEST(StridedCopyTest, CopiesRangesOfTwoBitElementsAcrossByteBoundaries) {
  auto x = Tensor::FromSubByteInts(DataType::kUint2, Shape({6}), {0, 1, 2, 3, 2, 1});
  ASSERT_TRUE(x.ok());
  Tensor y(DataType::kUint2, Shape({7}));
  CopyElements(*x, 2, &y, 3, 4);  // an odd destination offset inside the first byte
  EXPECT_THAT(IntsOf(y), ElementsAre(0, 0, 0, 2, 3, 2, 1));
}

TEST(StridedCopyTest, MovesFloat8Bytes) {
  std::vector<Float8E5M2> v(3);
  for (int i = 0; i < 3; ++i) v[i] = Float8E5M2::FromFloat(static_cast<float>(i + 1));
  Tensor x = Tensor::FromVector<Float8E5M2>(Shape({3}), v);
  Tensor y(DataType::kFloat8E5M2, Shape({3}));
  CopyStrided(x, {3}, {-1}, 2, &y);  // reversed
  EXPECT_EQ(y.ElementAsDouble(0), 3.0);
  EXPECT_EQ(y.ElementAsDouble(2), 1.0);
}

}  // namespace
}  // namespace onnxgate
