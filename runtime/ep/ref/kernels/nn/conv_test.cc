// Tests of Conv: hand-computed 2-D cases, padding, auto_pad asymmetry, strides, dilations,
// groups, bias, 1-D and 3-D against a direct-loop reference, zero-size batch and bad inputs.
#include "runtime/ep/ref/kernels/nn/conv.h"

#include <random>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

std::vector<float> Iota(int64_t n, float start = 0) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

TEST(ConvTest, TwoByTwoKernelOverThreeByThree) {
  auto y = RunNn(
      "Y = Conv(X, W)", 11,
      {TensorValue<float>({1, 1, 3, 3}, Iota(9)), TensorValue<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(8, 12, 20, 24));
}

TEST(ConvTest, PaddingStridesAndBias) {
  // 3x3 ones over 0..8 with pad 1, stride 2: each output sums one 2x2 corner of X, plus 100.
  auto y = RunNn(
      "Y = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (X, W, B)", 11,
      {TensorValue<float>({1, 1, 3, 3}, Iota(9)),
       TensorValue<float>({1, 1, 3, 3}, std::vector<float>(9, 1)), TensorValue<float>({1}, {100})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(108, 112, 120, 124));
}

TEST(ConvTest, AutoPadSameUpperAndLowerDifferWhereThePadIsOdd) {
  Value x = TensorValue<float>({1, 1, 4}, {1, 2, 3, 4});
  Value w = TensorValue<float>({1, 1, 2}, {1, 1});
  auto upper = RunNn("Y = Conv <auto_pad = \"SAME_UPPER\"> (X, W)", 11, {x, w});
  ASSERT_EQ(upper.size(), 1u);
  EXPECT_THAT(Elements<float>(upper[0]), ElementsAre(3, 5, 7, 4));
  auto lower = RunNn("Y = Conv <auto_pad = \"SAME_LOWER\"> (X, W)", 11, {x, w});
  ASSERT_EQ(lower.size(), 1u);
  EXPECT_THAT(Elements<float>(lower[0]), ElementsAre(1, 3, 5, 7));
  auto valid = RunNn("Y = Conv <auto_pad = \"VALID\", strides = [2]> (X, W)", 11, {x, w});
  ASSERT_EQ(valid.size(), 1u);
  EXPECT_THAT(Elements<float>(valid[0]), ElementsAre(3, 7));
}

TEST(ConvTest, Dilations) {
  auto y = RunNn(
      "Y = Conv <dilations = [2]> (X, W)", 11,
      {TensorValue<float>({1, 1, 5}, {1, 2, 3, 4, 5}), TensorValue<float>({1, 1, 2}, {1, 10})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(31, 42, 53));
}

TEST(ConvTest, GroupsKeepChannelsApart) {
  // Two groups: channel 0 feeds outputs 0-1, channel 1 feeds outputs 2-3.
  auto y = RunNn("Y = Conv <group = 2> (X, W)", 11,
                 {TensorValue<float>({1, 2, 1, 2}, {1, 2, 10, 20}),
                  TensorValue<float>({4, 1, 1, 1}, {1, 2, 3, 4})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 4, 1, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(1, 2, 2, 4, 30, 60, 40, 80));
}

TEST(ConvTest, ZeroSizeBatch) {
  auto y = RunNn("Y = Conv(X, W)", 11,
                 {TensorValue<float>({0, 1, 3, 3}, {}), TensorValue<float>({2, 1, 2, 2}, Iota(8))});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(0, 2, 2, 2));
}

TEST(ConvTest, Float16) {
  auto h = [](float f) { return Float16::FromFloat(f); };
  auto y = RunNn("Y = Conv(X, W)", 11,
                 {TensorValue<Float16>({1, 1, 2}, {h(1.5f), h(2)}),
                  TensorValue<Float16>({1, 1, 2}, {h(2), h(4)})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].tensor().data<Float16>()[0].ToFloat(), 11.0f);
}

TEST(ConvTest, BadInputsAreErrors) {
  Value x = TensorValue<float>({1, 2, 3, 3}, Iota(18));
  // W expects 3 input channels.
  EXPECT_EQ(
      RunNnStatus("Y = Conv(X, W)", 11, {x, TensorValue<float>({1, 3, 1, 1}, {1, 1, 1})}).code(),
      StatusCode::kInvalidArgument);
  // kernel_shape disagrees with W.
  EXPECT_EQ(RunNnStatus("Y = Conv <kernel_shape = [2, 2]> (X, W)", 11,
                        {x, TensorValue<float>({1, 2, 1, 1}, {1, 1})})
                .code(),
            StatusCode::kInvalidArgument);
  // Bias of the wrong length.
  EXPECT_EQ(
      RunNnStatus("Y = Conv(X, W, B)", 11,
                  {x, TensorValue<float>({1, 2, 1, 1}, {1, 1}), TensorValue<float>({2}, {1, 1})})
          .code(),
      StatusCode::kInvalidArgument);
  // Kernel larger than the input.
  EXPECT_EQ(
      RunNnStatus("Y = Conv(X, W)", 11, {x, TensorValue<float>({1, 2, 4, 4}, Iota(32))}).code(),
      StatusCode::kInvalidArgument);
  // Explicit pads beside auto_pad.
  EXPECT_EQ(RunNnStatus("Y = Conv <auto_pad = \"VALID\", pads = [1, 1, 1, 1]> (X, W)", 11,
                        {x, TensorValue<float>({1, 2, 1, 1}, {1, 1})})
                .code(),
            StatusCode::kInvalidArgument);
}

// A direct-loop convolution over 3 spatial axes (lower ranks use trailing 1s), independent of
// the im2col lowering under test.
struct Conv3d {
  int64_t n, c, m, group;
  int64_t in[3], k[3], s[3], d[3], pb[3], out[3];
  std::vector<double> Run(const std::vector<float>& x, const std::vector<float>& w,
                          const std::vector<float>& b) const {
    std::vector<double> y(n * m * out[0] * out[1] * out[2], 0.0);
    const int64_t cg = c / group, mg = m / group;
    for (int64_t img = 0; img < n; ++img)
      for (int64_t oc = 0; oc < m; ++oc)
        for (int64_t o0 = 0; o0 < out[0]; ++o0)
          for (int64_t o1 = 0; o1 < out[1]; ++o1)
            for (int64_t o2 = 0; o2 < out[2]; ++o2) {
              double acc = b.empty() ? 0.0 : b[oc];
              for (int64_t ic = 0; ic < cg; ++ic)
                for (int64_t k0 = 0; k0 < k[0]; ++k0)
                  for (int64_t k1 = 0; k1 < k[1]; ++k1)
                    for (int64_t k2 = 0; k2 < k[2]; ++k2) {
                      int64_t i0 = o0 * s[0] - pb[0] + k0 * d[0];
                      int64_t i1 = o1 * s[1] - pb[1] + k1 * d[1];
                      int64_t i2 = o2 * s[2] - pb[2] + k2 * d[2];
                      if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2])
                        continue;
                      int64_t xc = (oc / mg) * cg + ic;
                      acc += static_cast<double>(
                                 x[(((img * c + xc) * in[0] + i0) * in[1] + i1) * in[2] + i2]) *
                             w[(((oc * cg + ic) * k[0] + k0) * k[1] + k1) * k[2] + k2];
                    }
              y[(((img * m + oc) * out[0] + o0) * out[1] + o1) * out[2] + o2] = acc;
            }
    return y;
  }
};

std::string Ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

TEST(ConvTest, RandomCasesMatchDirectLoops) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::uniform_real_distribution<float> value(-1, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const int rank = 1 + trial % 3;
    Conv3d ref{};
    ref.group = pick(1, 2);
    ref.n = pick(1, 2);
    ref.c = ref.group * pick(1, 2);
    ref.m = ref.group * pick(1, 2);
    std::vector<int64_t> xdims = {ref.n, ref.c}, wdims = {ref.m, ref.c / ref.group};
    std::vector<int64_t> strides, dilations, pads_begin, pads_end;
    for (int i = 0; i < 3; ++i) {
      if (i < rank) {
        ref.k[i] = pick(1, 3);
        ref.s[i] = pick(1, 2);
        ref.d[i] = pick(1, 2);
        ref.pb[i] = pick(0, 1);
        int64_t pe = pick(0, 1);
        ref.in[i] = pick(static_cast<int>((ref.k[i] - 1) * ref.d[i] + 1), 6);
        ref.out[i] = (ref.in[i] + ref.pb[i] + pe - (ref.k[i] - 1) * ref.d[i] - 1) / ref.s[i] + 1;
        xdims.push_back(ref.in[i]);
        wdims.push_back(ref.k[i]);
        strides.push_back(ref.s[i]);
        dilations.push_back(ref.d[i]);
        pads_begin.push_back(ref.pb[i]);
        pads_end.push_back(pe);
      } else {
        ref.k[i] = ref.s[i] = ref.d[i] = ref.in[i] = ref.out[i] = 1;
        ref.pb[i] = 0;
      }
    }
    std::vector<int64_t> pads = pads_begin;
    pads.insert(pads.end(), pads_end.begin(), pads_end.end());
    std::vector<float> x(Shape(xdims).NumElements()), w(Shape(wdims).NumElements()), b(ref.m);
    for (float& v : x) v = value(rng);
    for (float& v : w) v = value(rng);
    for (float& v : b) v = value(rng);
    const std::string node = "Y = Conv <group = " + std::to_string(ref.group) +
                             ", strides = " + Ints(strides) + ", dilations = " + Ints(dilations) +
                             ", pads = " + Ints(pads) + "> (X, W, B)";
    auto y = RunNn(node, 11,
                   {TensorValue<float>(Shape(xdims), x), TensorValue<float>(Shape(wdims), w),
                    TensorValue<float>({ref.m}, b)});
    ASSERT_EQ(y.size(), 1u) << node;
    EXPECT_THAT(Elements<float>(y[0]), FloatsNear(ref.Run(x, w, b))) << node;
  }
}

TEST(ConvTest, Bfloat16FromVersion22) {
  const std::vector<Value> in = {BFloat16Value({1, 1, 3, 3}, Iota(9)),
                                 BFloat16Value({1, 1, 2, 2}, {1, 1, 1, 1})};
  auto y = RunNn("Y = Conv(X, W)", 22, in);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(8, 12, 20, 24));
  EXPECT_FALSE(RunNnStatus("Y = Conv(X, W)", 21, in).ok());
}

}  // namespace
}  // namespace onnxgate::ref
