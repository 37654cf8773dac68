// Tests of the helpers shared by the quantization, resampling and indexing kernels.
#include "runtime/provider/common/indexing_util.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

TEST(IndexingUtilTest, RoundHalfToEven) {
  EXPECT_EQ(RoundHalfToEven(0.5), 0.0);
  EXPECT_EQ(RoundHalfToEven(1.5), 2.0);
  EXPECT_EQ(RoundHalfToEven(2.5), 2.0);
  EXPECT_EQ(RoundHalfToEven(-0.5), 0.0);
  EXPECT_EQ(RoundHalfToEven(-1.5), -2.0);
  EXPECT_EQ(RoundHalfToEven(-2.5), -2.0);
  EXPECT_EQ(RoundHalfToEven(2.4999), 2.0);
  EXPECT_EQ(RoundHalfToEven(-2.5001), -3.0);
  EXPECT_TRUE(std::isnan(RoundHalfToEven(std::nan(""))));
}

TEST(IndexingUtilTest, SaturateAndStore) {
  EXPECT_EQ(SaturateTo<uint8_t>(-3), 0);
  EXPECT_EQ(SaturateTo<uint8_t>(300), 255);
  EXPECT_EQ(SaturateTo<int8_t>(-200), -128);
  EXPECT_EQ(SaturateTo<int8_t>(std::nan("")), 0);
  EXPECT_EQ(SaturateTo<int64_t>(1e30), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(StoreAs<int32_t>(2.5), 2);
  EXPECT_EQ(StoreAs<int32_t>(3.5), 4);
  EXPECT_EQ(StoreAs<uint16_t>(-1.0), 0);
  EXPECT_EQ(StoreAs<float>(0.1), 0.1f);
  EXPECT_EQ(StoreAs<Float16>(1.5).ToFloat(), 1.5f);
}

TEST(IndexingUtilTest, ScalarsOfTensors) {
  auto f = FloatScalarOf(Tensor::FromVector<double>(Shape({1, 1}), {2.5}), "s");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, 2.5);
  EXPECT_FALSE(FloatScalarOf(Tensor::FromVector<float>(Shape({2}), {1, 2}), "s").ok());
  EXPECT_FALSE(FloatScalarOf(Tensor::Scalar<int32_t>(1), "s").ok());
  auto i = IntScalarOf(Tensor::Scalar<uint8_t>(200), "i");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(*i, 200);
  EXPECT_FALSE(IntScalarOf(Tensor::Scalar<float>(1), "i").ok());
}

TEST(IndexingUtilTest, TakeElementsWithFill) {
  const Tensor src = Tensor::FromVector<std::string>(Shape({3}), {"a", "b", "c"});
  const Tensor fill = Tensor::Scalar<std::string>("-");
  auto t = TakeElements(src, Shape({2, 2}), {2, -1, 0, 0}, &fill);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_THAT(
      std::vector<std::string>(t->data<std::string>(), t->data<std::string>() + t->NumElements()),
      ElementsAre("c", "-", "a", "a"));
  EXPECT_FALSE(TakeElements(src, Shape({1}), {-1}).ok());
  const Tensor wrong_type = Tensor::Scalar<int32_t>(0);
  EXPECT_FALSE(TakeElements(src, Shape({1}), {0}, &wrong_type).ok());
}

TEST(IndexingUtilTest, FlatIndexFromAxisMaps) {
  // A [2, 3] input read through maps of sizes 2 and 2.
  EXPECT_THAT(FlatIndexFromAxisMaps(Shape({2, 3}), {{1, 0}, {2, -1}}), ElementsAre(5, -1, 2, -1));
  EXPECT_TRUE(FlatIndexFromAxisMaps(Shape({2, 3}), {{}, {0}}).empty());
  EXPECT_THAT(FlatIndexFromAxisMaps(Shape({}), {}), ElementsAre(0));
}

}  // namespace
}  // namespace onnxgate
