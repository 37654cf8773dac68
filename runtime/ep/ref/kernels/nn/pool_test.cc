// Tests of the pooling ops: MaxPool with Indices in both storage orders, integer types,
// ceil_mode, dilations, NaN; AveragePool's count_include_pad and dilations (19); LpPool with its
// float p (1), ceil_mode and dilations (18); the Global forms; bfloat16 (22); version rules and
// windows that see only padding.
#include "runtime/ep/ref/kernels/nn/pool.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(PoolTest, MaxPoolTwoByTwoStrideTwo) {
  auto y =
      RunNn("Y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (X)", 12,
            {TensorValue<float>({1, 1, 4, 4}, {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 9, 9, 7, 0, 9, 9})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(5, 8, 7, 9));
}

TEST(PoolTest, MaxPoolIndicesInBothStorageOrders) {
  // Two planes of 2x3; the max of each 2x2 window and where it is, counted over the tensor.
  Value x = TensorValue<float>({1, 2, 2, 3}, {1, 9, 2, 3, 4, 5, 6, 0, 0, 0, 0, 7});
  auto row = RunNn("Y, I = MaxPool <kernel_shape = [2, 2]> (X)", 12, {x});
  ASSERT_EQ(row.size(), 2u);
  EXPECT_THAT(Elements<float>(row[0]), ElementsAre(9, 9, 6, 7));
  EXPECT_THAT(Elements<int64_t>(row[1]), ElementsAre(1, 1, 6, 11));
  auto col = RunNn("Y, I = MaxPool <kernel_shape = [2, 2], storage_order = 1> (X)", 12, {x});
  ASSERT_EQ(col.size(), 2u);
  // Column-major inside a 2x3 plane: element (r, c) is at r + 2 * c.
  EXPECT_THAT(Elements<int64_t>(col[1]), ElementsAre(2, 2, 6, 11));
}

TEST(PoolTest, MaxPoolTiesKeepTheFirstAndNaNPropagates) {
  const float nan = std::nanf("");
  auto y = RunNn("Y, I = MaxPool <kernel_shape = [2]> (X)", 12,
                 {TensorValue<float>({1, 1, 4}, {3, 3, nan, 1})});
  ASSERT_EQ(y.size(), 2u);
  std::vector<float> v = Elements<float>(y[0]);
  EXPECT_EQ(v[0], 3);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_THAT(Elements<int64_t>(y[1]), ElementsAre(0, 2, 2));
}

TEST(PoolTest, MaxPoolIntegersFromVersion12) {
  auto y = RunNn("Y = MaxPool <kernel_shape = [2]> (X)", 12,
                 {TensorValue<int8_t>({1, 1, 3}, {-128, -5, 127})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<int8_t>(y[0]), ElementsAre(-5, 127));
  auto u = RunNn("Y = MaxPool <kernel_shape = [2]> (X)", 12,
                 {TensorValue<uint8_t>({1, 1, 2}, {200, 255})});
  ASSERT_EQ(u.size(), 1u);
  EXPECT_THAT(Elements<uint8_t>(u[0]), ElementsAre(255));
  EXPECT_EQ(RunNnStatus("Y = MaxPool <kernel_shape = [2]> (X)", 11,
                        {TensorValue<int8_t>({1, 1, 2}, {1, 2})})
                .code(),
            StatusCode::kUnimplemented);
}

TEST(PoolTest, MaxPoolCeilModeAndDilations) {
  Value x = TensorValue<float>({1, 1, 5}, {1, 2, 3, 4, 5});
  auto floor_mode = RunNn("Y = MaxPool <kernel_shape = [2], strides = [2]> (X)", 12, {x});
  ASSERT_EQ(floor_mode.size(), 1u);
  EXPECT_THAT(Elements<float>(floor_mode[0]), ElementsAre(2, 4));
  auto ceil_mode =
      RunNn("Y = MaxPool <kernel_shape = [2], strides = [2], ceil_mode = 1> (X)", 12, {x});
  ASSERT_EQ(ceil_mode.size(), 1u);
  EXPECT_THAT(Elements<float>(ceil_mode[0]), ElementsAre(2, 4, 5));
  auto dilated = RunNn("Y = MaxPool <kernel_shape = [2], dilations = [3]> (X)", 12, {x});
  ASSERT_EQ(dilated.size(), 1u);
  EXPECT_THAT(Elements<float>(dilated[0]), ElementsAre(4, 5));
}

TEST(PoolTest, AttributesOutsideTheirVersionAreRejected) {
  Value x = TensorValue<float>({1, 1, 2}, {1, 2});
  EXPECT_EQ(RunNnStatus("Y = MaxPool <kernel_shape = [2], ceil_mode = 1> (X)", 9, {x}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y, I = MaxPool <kernel_shape = [2]> (X)", 7, {x}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y = MaxPool(X)", 12, {x}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y = MaxPool <kernel_shape = [2, 2]> (X)", 12, {x}).code(),
            StatusCode::kInvalidArgument);
  // MaxPool-8 already has Indices.
  auto y = RunNn("Y, I = MaxPool <kernel_shape = [2]> (X)", 8, {x});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_THAT(Elements<int64_t>(y[1]), ElementsAre(1));
}

TEST(PoolTest, AveragePoolCountIncludePad) {
  Value x = TensorValue<float>({1, 1, 3}, {3, 6, 9});
  auto exclude = RunNn("Y = AveragePool <kernel_shape = [2], pads = [1, 1]> (X)", 11, {x});
  ASSERT_EQ(exclude.size(), 1u);
  EXPECT_THAT(Elements<float>(exclude[0]), ElementsAre(3, 4.5f, 7.5f, 9));
  auto include = RunNn(
      "Y = AveragePool <kernel_shape = [2], pads = [1, 1], count_include_pad = 1> (X)", 11, {x});
  ASSERT_EQ(include.size(), 1u);
  EXPECT_THAT(Elements<float>(include[0]), ElementsAre(1.5f, 4.5f, 7.5f, 4.5f));
}

TEST(PoolTest, AveragePoolCeilModeDoesNotCountPastThePadding) {
  // Windows [0,1], [2,3], [4,(5)]: position 5 lies past the input and its (zero) padding.
  auto y = RunNn(
      "Y = AveragePool <kernel_shape = [2], strides = [2], ceil_mode = 1, count_include_pad = 1> "
      "(X)",
      11, {TensorValue<float>({1, 1, 5}, {1, 2, 3, 4, 5})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(1.5f, 3.5f, 5));
}

TEST(PoolTest, WindowsThatSeeOnlyPadding) {
  Value x = TensorValue<float>({1, 1, 3}, {1, 2, 3});
  EXPECT_EQ(RunNnStatus("Y = AveragePool <kernel_shape = [2], pads = [2, 0]> (X)", 11, {x}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y = MaxPool <kernel_shape = [2], pads = [2, 0]> (X)", 12, {x}).code(),
            StatusCode::kInvalidArgument);
  // With the padding counted the average is defined: zero.
  auto y = RunNn("Y = AveragePool <kernel_shape = [2], pads = [2, 0], count_include_pad = 1> (X)",
                 11, {x});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(0, 0.5f, 1.5f, 2.5f));
}

TEST(PoolTest, AveragePoolSameUpperOnThreeAxes) {
  auto y = RunNn("Y = AveragePool <kernel_shape = [2, 2, 2], auto_pad = \"SAME_UPPER\"> (X)", 11,
                 {TensorValue<float>({1, 1, 2, 2, 2}, Iota(8))});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f, 7));
}

TEST(PoolTest, LpPool) {
  Value x = TensorValue<float>({1, 1, 3}, {3, -4, 12});
  auto l2 = RunNn("Y = LpPool <kernel_shape = [2]> (X)", 11, {x});
  ASSERT_EQ(l2.size(), 1u);
  EXPECT_THAT(Elements<float>(l2[0]), ElementsAre(5, std::sqrt(160.0f)));
  auto l1 = RunNn("Y = LpPool <kernel_shape = [3], p = 1> (X)", 11, {x});
  ASSERT_EQ(l1.size(), 1u);
  EXPECT_THAT(Elements<float>(l1[0]), ElementsAre(19));
  EXPECT_EQ(RunNnStatus("Y = LpPool <kernel_shape = [2], p = 0> (X)", 11, {x}).code(),
            StatusCode::kInvalidArgument);
}

TEST(PoolTest, GlobalPools) {
  Value x = TensorValue<float>({2, 1, 2, 2}, {1, 2, 3, 4, -1, -2, -3, -6});
  auto avg = RunNn("Y = GlobalAveragePool(X)", 13, {x});
  ASSERT_EQ(avg.size(), 1u);
  EXPECT_THAT(Dims(avg[0]), ElementsAre(2, 1, 1, 1));
  EXPECT_THAT(Elements<float>(avg[0]), ElementsAre(2.5f, -3));
  auto max = RunNn("Y = GlobalMaxPool(X)", 13, {x});
  ASSERT_EQ(max.size(), 1u);
  EXPECT_THAT(Elements<float>(max[0]), ElementsAre(4, -1));
  auto lp = RunNn("Y = GlobalLpPool <p = 1> (X)", 13, {x});
  ASSERT_EQ(lp.size(), 1u);
  EXPECT_THAT(Elements<float>(lp[0]), ElementsAre(10, 12));
}

TEST(PoolTest, ZeroSizeBatch) {
  auto y = RunNn("Y = MaxPool <kernel_shape = [2]> (X)", 12, {TensorValue<float>({0, 3, 4}, {})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(0, 3, 3));
  auto g = RunNn("Y = GlobalAveragePool(X)", 13, {TensorValue<float>({0, 3, 4}, {})});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_THAT(Dims(g[0]), ElementsAre(0, 3, 1));
}

TEST(PoolTest, InputWithoutSpatialAxesIsAnError) {
  EXPECT_EQ(RunNnStatus("Y = GlobalMaxPool(X)", 13, {TensorValue<float>({1, 2}, {1, 2})}).code(),
            StatusCode::kInvalidArgument);
}

TEST(PoolTest, AveragePoolDilationsFromVersion19) {
  // Kernel 2 with dilation 2 reads x[i] and x[i + 2].
  Value x = TensorValue<float>({1, 1, 4}, {1, 2, 3, 4});
  auto y = RunNn("Y = AveragePool <kernel_shape = [2], dilations = [2]> (X)", 19, {x});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(2, 3));
  // With padding counted, a dilated window over padding divides by its whole size.
  auto inc = RunNn(
      "Y = AveragePool <kernel_shape = [2], dilations = [2], pads = [1, 1], count_include_pad = 1> "
      "(X)",
      19, {x});
  ASSERT_EQ(inc.size(), 1u);
  EXPECT_THAT(Elements<float>(inc[0]), ElementsAre(1, 2, 3, 1.5f));
  EXPECT_EQ(
      RunNnStatus("Y = AveragePool <kernel_shape = [2], dilations = [2]> (X)", 18, {x}).code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      RunNnStatus("Y = AveragePool <kernel_shape = [2], dilations = [0]> (X)", 19, {x}).code(),
      StatusCode::kInvalidArgument);
}

TEST(PoolTest, LpPoolCeilModeAndDilationsFromVersion18) {
  Value x = TensorValue<float>({1, 1, 5}, {3, 4, 0, 0, 5});
  auto dil = RunNn("Y = LpPool <kernel_shape = [2], dilations = [4]> (X)", 18, {x});
  ASSERT_EQ(dil.size(), 1u);
  EXPECT_THAT(Elements<float>(dil[0]), ElementsAre(std::sqrt(34.0f)));
  auto ceil = RunNn("Y = LpPool <kernel_shape = [2], strides = [2], ceil_mode = 1> (X)", 18, {x});
  ASSERT_EQ(ceil.size(), 1u);
  EXPECT_THAT(Elements<float>(ceil[0]), ElementsAre(5, 0, 5));
  EXPECT_EQ(RunNnStatus("Y = LpPool <kernel_shape = [2], ceil_mode = 1> (X)", 11, {x}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y = LpPool <kernel_shape = [2], dilations = [2]> (X)", 17, {x}).code(),
            StatusCode::kInvalidArgument);
}

TEST(PoolTest, LpPoolVersion1TakesAFloatP) {
  Value x = TensorValue<float>({1, 1, 2}, {1, 8});
  auto y = RunNn("Y = LpPool <kernel_shape = [2], p = 3.0> (X)", 1, {x});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{std::cbrt(513.0)}));
  auto half = RunNn("Y = GlobalLpPool <p = 0.5> (X)", 1, {x});
  ASSERT_EQ(half.size(), 1u);
  EXPECT_THAT(Elements<float>(half[0]),
              FloatsNear(std::vector<double>{std::pow(1 + std::sqrt(8.0), 2)}));
  EXPECT_EQ(RunNnStatus("Y = LpPool <kernel_shape = [2], p = -1.0> (X)", 1, {x}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y = GlobalLpPool <p = 0.0> (X)", 1, {x}).code(),
            StatusCode::kInvalidArgument);
}

TEST(PoolTest, ValidPaddingIgnoresCeilMode) {
  // The spec's VALID size, ceil((5 - 2 + 1) / 2) = 2, is the floor size: no third window.
  Value x = TensorValue<float>({1, 1, 5}, {1, 2, 3, 4, 5});
  for (const char* op : {"MaxPool", "AveragePool"}) {
    auto y = RunNn(std::string("Y = ") + op +
                       " <kernel_shape = [2], strides = [2], auto_pad = \"VALID\", ceil_mode = 1> "
                       "(X)",
                   19, {x});
    ASSERT_EQ(y.size(), 1u) << op;
    EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2)) << op;
  }
}

TEST(PoolTest, Bfloat16FromVersion22) {
  Value x = BFloat16Value({1, 1, 4}, {1, 5, 2, 3});
  auto max = RunNn("Y = MaxPool <kernel_shape = [2]> (X)", 22, {x});
  ASSERT_EQ(max.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(max[0]), ElementsAre(5, 5, 3));
  auto avg = RunNn("Y = AveragePool <kernel_shape = [2], strides = [2]> (X)", 22, {x});
  ASSERT_EQ(avg.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(avg[0]), ElementsAre(3, 2.5f));
  auto lp = RunNn("Y = LpPool <kernel_shape = [4], p = 1> (X)", 22, {x});
  ASSERT_EQ(lp.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(lp[0]), ElementsAre(11));
  for (const char* op : {"GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"}) {
    auto g = RunNn(std::string("Y = ") + op + "(X)", 22, {x});
    ASSERT_EQ(g.size(), 1u) << op;
    EXPECT_THAT(Dims(g[0]), ElementsAre(1, 1, 1)) << op;
  }
  EXPECT_EQ(RunNnStatus("Y = GlobalAveragePool(X)", 22, {BFloat16Value({4}, {1, 2, 3, 4})}).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
