// Tests of ConvTranspose: hand-computed 1-D cases for strides, pads, output_padding,
// output_shape and auto_pad, groups and bias, and random cases checked as the adjoint of Conv.
#include "runtime/ep/ref/kernels/nn/conv_transpose.h"

#include <random>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value X123() { return TensorValue<float>({1, 1, 3}, {1, 2, 3}); }

TEST(ConvTransposeTest, UnitStrideSumsOverlaps) {
  auto y = RunNn("Y = ConvTranspose(X, W)", 11, {X123(), TensorValue<float>({1, 1, 2}, {1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 4));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(1, 3, 5, 3));
}

TEST(ConvTransposeTest, StridesPadsAndOutputPadding) {
  Value w = TensorValue<float>({1, 1, 2}, {1, 1});
  auto strided = RunNn("Y = ConvTranspose <strides = [2]> (X, W)", 11, {X123(), w});
  ASSERT_EQ(strided.size(), 1u);
  EXPECT_THAT(Elements<float>(strided[0]), ElementsAre(1, 1, 2, 2, 3, 3));
  auto cropped = RunNn("Y = ConvTranspose <strides = [2], pads = [1, 1]> (X, W)", 11, {X123(), w});
  ASSERT_EQ(cropped.size(), 1u);
  EXPECT_THAT(Elements<float>(cropped[0]), ElementsAre(1, 2, 2, 3));
  auto extended =
      RunNn("Y = ConvTranspose <strides = [2], output_padding = [1]> (X, W)", 11, {X123(), w});
  ASSERT_EQ(extended.size(), 1u);
  EXPECT_THAT(Elements<float>(extended[0]), ElementsAre(1, 1, 2, 2, 3, 3, 0));
}

TEST(ConvTransposeTest, OutputShapeDecidesThePads) {
  Value w = TensorValue<float>({1, 1, 2}, {1, 1});
  // Full extent 6, asked for 8: one position of negative padding on each side.
  auto y = RunNn("Y = ConvTranspose <strides = [2], output_shape = [8]> (X, W)", 11, {X123(), w});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(0, 1, 1, 2, 2, 3, 3, 0));
  // The full form N, C, spatial is accepted too; asking for 5 crops one at the start.
  auto full =
      RunNn("Y = ConvTranspose <strides = [2], output_shape = [1, 1, 5]> (X, W)", 11, {X123(), w});
  ASSERT_EQ(full.size(), 1u);
  EXPECT_THAT(Elements<float>(full[0]), ElementsAre(1, 2, 2, 3, 3));
}

TEST(ConvTransposeTest, AutoPadSameSplitsTheOddPadAsTheSpecSays) {
  Value w = TensorValue<float>({1, 1, 3}, {1, 1, 1});
  // Full extent [1, 1, 3, 2, 5, 3, 3]; SAME asks for 3 * 2 = 6.
  auto upper =
      RunNn("Y = ConvTranspose <strides = [2], auto_pad = \"SAME_UPPER\"> (X, W)", 11, {X123(), w});
  ASSERT_EQ(upper.size(), 1u);
  EXPECT_THAT(Elements<float>(upper[0]), ElementsAre(1, 1, 3, 2, 5, 3));
  auto lower =
      RunNn("Y = ConvTranspose <strides = [2], auto_pad = \"SAME_LOWER\"> (X, W)", 11, {X123(), w});
  ASSERT_EQ(lower.size(), 1u);
  EXPECT_THAT(Elements<float>(lower[0]), ElementsAre(1, 3, 2, 5, 3, 3));
}

TEST(ConvTransposeTest, GroupsAndBias) {
  // Two groups of one input channel, each producing one output channel.
  auto y = RunNn("Y = ConvTranspose <group = 2> (X, W, B)", 11,
                 {TensorValue<float>({1, 2, 2}, {1, 2, 10, 20}),
                  TensorValue<float>({2, 1, 1}, {3, 4}), TensorValue<float>({2}, {0.5f, -1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(3.5f, 6.5f, 39, 79));
}

TEST(ConvTransposeTest, BadInputsAreErrors) {
  // W[0] must equal X's channels.
  EXPECT_EQ(
      RunNnStatus("Y = ConvTranspose(X, W)", 11, {X123(), TensorValue<float>({2, 1, 1}, {1, 1})})
          .code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNnStatus("Y = ConvTranspose <output_shape = [2, 2]> (X, W)", 11,
                        {X123(), TensorValue<float>({1, 1, 1}, {1})})
                .code(),
            StatusCode::kInvalidArgument);
}

std::string Ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

double Dot(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * b[i];
  return s;
}

// ConvTranspose with W is the adjoint of Conv with W: <Conv(x), y> = <x, ConvTranspose(y)>
// when pads match and output_padding restores the rows Conv's last stride left unread.
TEST(ConvTransposeTest, RandomCasesAreTheAdjointOfConv) {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::uniform_real_distribution<float> value(-1, 1);
  for (int trial = 0; trial < 30; ++trial) {
    const int rank = 1 + trial % 2;
    const int64_t group = pick(1, 2), c = group * pick(1, 2), m = group * pick(1, 2);
    std::vector<int64_t> xdims = {1, c}, wdims = {m, c / group}, ydims = {1, m};
    std::vector<int64_t> strides, dilations, pads_begin, pads_end, output_padding;
    for (int i = 0; i < rank; ++i) {
      const int64_t k = pick(1, 3), s = pick(1, 3), d = pick(1, 2), pb = pick(0, 1),
                    pe = pick(0, 1);
      const int64_t n = pick(static_cast<int>((k - 1) * d + 1), 7);
      xdims.push_back(n);
      wdims.push_back(k);
      ydims.push_back((n + pb + pe - (k - 1) * d - 1) / s + 1);
      output_padding.push_back((n + pb + pe - (k - 1) * d - 1) % s);
      strides.push_back(s);
      dilations.push_back(d);
      pads_begin.push_back(pb);
      pads_end.push_back(pe);
    }
    std::vector<int64_t> pads = pads_begin;
    pads.insert(pads.end(), pads_end.begin(), pads_end.end());
    std::vector<float> x(Shape(xdims).NumElements()), w(Shape(wdims).NumElements()),
        y(Shape(ydims).NumElements());
    for (float& v : x) v = value(rng);
    for (float& v : w) v = value(rng);
    for (float& v : y) v = value(rng);
    const std::string common = "group = " + std::to_string(group) + ", strides = " + Ints(strides) +
                               ", dilations = " + Ints(dilations);
    auto conv = RunNn("Y = Conv <" + common + ", pads = " + Ints(pads) + "> (X, W)", 11,
                      {TensorValue<float>(Shape(xdims), x), TensorValue<float>(Shape(wdims), w)});
    auto transposed =
        RunNn("Y = ConvTranspose <" + common + ", output_padding = " + Ints(output_padding) +
                  ", pads = " + Ints(pads) + "> (X, W)",
              11, {TensorValue<float>(Shape(ydims), y), TensorValue<float>(Shape(wdims), w)});
    ASSERT_EQ(conv.size(), 1u);
    ASSERT_EQ(transposed.size(), 1u);
    ASSERT_EQ(Dims(transposed[0]), xdims) << common;
    EXPECT_NEAR(Dot(Elements<float>(conv[0]), y), Dot(x, Elements<float>(transposed[0])), 1e-4)
        << common;
  }
}

TEST(ConvTransposeTest, Bfloat16FromVersion22) {
  const std::vector<Value> in = {BFloat16Value({1, 1, 3}, {1, 2, 3}),
                                 BFloat16Value({1, 1, 2}, {1, 1})};
  auto y = RunNn("Y = ConvTranspose(X, W)", 22, in);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(1, 3, 5, 3));
  EXPECT_FALSE(RunNnStatus("Y = ConvTranspose(X, W)", 21, in).ok());
}

}  // namespace
}  // namespace onnxgate::ref
