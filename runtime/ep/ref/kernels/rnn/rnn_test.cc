// Tests of RNN, GRU and LSTM: single steps against hand-written formulas, and the relations
// between forms the ONNX suite does not reach (reverse, bidirectional, layout, sequence_lens,
// clip, activation parameters, linear_before_reset, input_forget, peepholes, element types).
#include "runtime/ep/ref/kernels/rnn/rnn.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Pointwise;

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

std::vector<double> Doubles(const Value& v) { return ValuesOf<double>(v); }

// Deterministic, varied values in [-1, 1].
std::vector<double> Pattern(size_t n, double seed) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(seed + 0.7 * static_cast<double>(i));
  return v;
}

Value D(Shape shape, std::vector<double> v) { return TensorValue<double>(std::move(shape), v); }

// X [seq, batch, input] with its time steps in reverse order.
Value ReverseTime(const Value& x) {
  const std::vector<int64_t> dims = DimsOf(x);
  const size_t step = static_cast<size_t>(dims[1] * dims[2]);
  const std::vector<double> v = Doubles(x);
  std::vector<double> out;
  for (int64_t t = dims[0] - 1; t >= 0; --t) {
    out.insert(out.end(), v.begin() + t * step, v.begin() + (t + 1) * step);
  }
  return D(Shape(dims), out);
}

class RnnTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(RnnTest, RnnMatchesTheFormulaStepByStep) {
  // h1 = tanh(0.5 * 1 + 0.1 + 0.2), h2 = tanh(0.5 * 2 + 0.25 * h1 + 0.3)
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y, Y_h = RNN <hidden_size = 1> (X, W, R, B)", 14,
                               {D({2, 1, 1}, {1, 2}), D({1, 1, 1}, {0.5}), D({1, 1, 1}, {0.25}),
                                D({1, 2}, {0.1, 0.2})}));
  const double h1 = std::tanh(0.8);
  const double h2 = std::tanh(1.0 + 0.25 * h1 + 0.3);
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 1, 1, 1));
  EXPECT_THAT(Doubles(out[0]), ElementsAre(DoubleNear(h1, 1e-12), DoubleNear(h2, 1e-12)));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(1, 1, 1));
  EXPECT_THAT(Doubles(out[1]), ElementsAre(DoubleNear(h2, 1e-12)));
}

// Runs a 2-hidden RNN over X [seq=3, batch=2, input=2] with fixed weights.
class RnnDirectionTest : public RnnTest {
 protected:
  StatusOr<std::vector<Value>> Run(const std::string& attrs, int dirs, Value x, int opset = 14,
                                   Value seq_lens = Value()) {
    const std::string text = "Y, Y_h = RNN <hidden_size = 2" + attrs + "> (X, W, R, B, L)";
    std::vector<double> w = Pattern(dirs * 4, 0.3), r = Pattern(dirs * 4, 1.1),
                        b = Pattern(dirs * 4, 2.0);
    if (dirs == 2) {  // the reverse direction reuses the forward weights
      for (int i = 0; i < 4; ++i) {
        w[4 + i] = w[i];
        r[4 + i] = r[i];
        b[4 + i] = b[i];
      }
    }
    return RunNode(registry_, text, opset,
                   {x, D({dirs, 2, 2}, w), D({dirs, 2, 2}, r), D({dirs, 4}, b), seq_lens});
  }
  Value x_ = D({3, 2, 2}, Pattern(12, 0.5));
  // x_ with its time steps in reverse order.
  Value x_reversed_ = ReverseTime(x_);
};

TEST_F(RnnDirectionTest, ReverseIsForwardOverReversedTime) {
  ASSERT_OK_AND_ASSIGN(auto fwd, Run("", 1, x_reversed_));
  ASSERT_OK_AND_ASSIGN(auto rev, Run(", direction = \"reverse\"", 1, x_));
  std::vector<double> f = Doubles(fwd[0]), r = Doubles(rev[0]);
  for (int t = 0; t < 3; ++t) {
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(r[t * 4 + i], f[(2 - t) * 4 + i], 1e-12);
  }
  EXPECT_THAT(Doubles(rev[1]), Pointwise(DoubleNear(1e-12), Doubles(fwd[1])));
}

TEST_F(RnnDirectionTest, BidirectionalStacksBothDirections) {
  ASSERT_OK_AND_ASSIGN(auto fwd, Run("", 1, x_));
  ASSERT_OK_AND_ASSIGN(auto rev, Run(", direction = \"reverse\"", 1, x_));
  // One activation listed for a bidirectional op serves both directions.
  ASSERT_OK_AND_ASSIGN(auto both,
                       Run(", direction = \"bidirectional\", activations = [\"Tanh\"]", 2, x_));
  EXPECT_THAT(DimsOf(both[0]), ElementsAre(3, 2, 2, 2));
  std::vector<double> y = Doubles(both[0]), f = Doubles(fwd[0]), r = Doubles(rev[0]);
  for (int t = 0; t < 3; ++t) {
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(y[(t * 2 + 0) * 4 + i], f[t * 4 + i], 1e-12);
      EXPECT_NEAR(y[(t * 2 + 1) * 4 + i], r[t * 4 + i], 1e-12);
    }
  }
  std::vector<double> h = Doubles(both[1]);
  std::vector<double> expected_h = Doubles(fwd[1]);
  for (double v : Doubles(rev[1])) expected_h.push_back(v);
  EXPECT_THAT(h, Pointwise(DoubleNear(1e-12), expected_h));
}

TEST_F(RnnDirectionTest, LayoutOneIsBatchFirst) {
  ASSERT_OK_AND_ASSIGN(auto seq_first, Run("", 1, x_));
  std::vector<double> x = Doubles(x_), xb(x.size());
  for (int t = 0; t < 3; ++t) {
    for (int b = 0; b < 2; ++b) {
      for (int k = 0; k < 2; ++k) xb[(b * 3 + t) * 2 + k] = x[(t * 2 + b) * 2 + k];
    }
  }
  ASSERT_OK_AND_ASSIGN(auto batch_first, Run(", layout = 1", 1, D({2, 3, 2}, xb)));
  EXPECT_THAT(DimsOf(batch_first[0]), ElementsAre(2, 3, 1, 2));
  EXPECT_THAT(DimsOf(batch_first[1]), ElementsAre(2, 1, 2));
  std::vector<double> y0 = Doubles(seq_first[0]), y1 = Doubles(batch_first[0]);
  for (int t = 0; t < 3; ++t) {
    for (int b = 0; b < 2; ++b) {
      for (int k = 0; k < 2; ++k)
        EXPECT_NEAR(y1[(b * 3 + t) * 2 + k], y0[(t * 2 + b) * 2 + k], 1e-12);
    }
  }
  EXPECT_THAT(Doubles(batch_first[1]), Pointwise(DoubleNear(1e-12), Doubles(seq_first[1])));
  // Before opset 14 there is no layout attribute.
  EXPECT_ERROR_CODE(Run(", layout = 1", 1, D({2, 3, 2}, xb), 7), kInvalidArgument);
}

TEST_F(RnnDirectionTest, SequenceLensStopEachBatchEntry) {
  ASSERT_OK_AND_ASSIGN(auto full, Run(", direction = \"bidirectional\"", 2, x_));
  ASSERT_OK_AND_ASSIGN(auto cut, Run(", direction = \"bidirectional\"", 2, x_, 14,
                                     TensorValue<int32_t>({2}, {3, 1})));
  std::vector<double> yf = Doubles(full[0]), yc = Doubles(cut[0]);
  // [t, dir, batch, hidden]: batch 0 is unchanged, batch 1 ends after its first step.
  auto at = [](int t, int d, int b, int k) { return ((t * 2 + d) * 2 + b) * 2 + k; };
  for (int t = 0; t < 3; ++t) {
    for (int d = 0; d < 2; ++d) {
      for (int k = 0; k < 2; ++k) {
        EXPECT_NEAR(yc[at(t, d, 0, k)], yf[at(t, d, 0, k)], 1e-12);
        if (t > 0) {
          EXPECT_EQ(yc[at(t, d, 1, k)], 0.0);
        }
      }
    }
  }
  // Batch 1's one step is its first in both directions, so forward and reverse agree, and
  // Y_h holds that step's output.
  std::vector<double> hc = Doubles(cut[1]);
  for (int d = 0; d < 2; ++d) {
    for (int k = 0; k < 2; ++k) {
      EXPECT_NEAR(yc[at(0, d, 1, k)], yc[at(0, 0, 1, k)], 1e-12);
      EXPECT_NEAR(hc[(d * 2 + 1) * 2 + k], yc[at(0, d, 1, k)], 1e-12);
    }
  }
  EXPECT_ERROR_CODE(Run("", 1, x_, 14, TensorValue<int32_t>({2}, {4, 1})), kInvalidArgument);
}

TEST_F(RnnTest, ClipBoundsTheActivationInput) {
  // Affine with alpha 1, beta 0 is the identity, so the output is the clipped pre-activation.
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_,
                        "Y, Y_h = RNN <hidden_size = 1, clip = 0.5, activations = [\"Affine\"],"
                        " activation_alpha = [1.0], activation_beta = [0.0]> (X, W, R)",
                        14, {D({2, 1, 1}, {3, -0.2}), D({1, 1, 1}, {1}), D({1, 1, 1}, {1})}));
  EXPECT_THAT(Doubles(out[0]), ElementsAre(0.5, DoubleNear(0.3, 1e-12)));
}

TEST_F(RnnTest, InitialHiddenStateIsUsed) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y, Y_h = RNN <hidden_size = 1> (X, W, R, B, L, H0)", 14,
                        {D({1, 1, 1}, {0}), D({1, 1, 1}, {1}), D({1, 1, 1}, {2}), Value(), Value(),
                         D({1, 1, 1}, {0.5})}));
  EXPECT_THAT(Doubles(out[1]), ElementsAre(DoubleNear(std::tanh(1.0), 1e-12)));
}

TEST_F(RnnTest, UnknownActivationAndBadShapesAreRejected) {
  const std::vector<Value> in = {D({1, 1, 1}, {0}), D({1, 1, 1}, {1}), D({1, 1, 1}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RNN <activations = [\"Swish\"]> (X, W, R)", 14, in),
                    kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RNN <direction = \"sideways\"> (X, W, R)", 14, in),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RNN (X, W, R)", 14,
                            {D({1, 1, 1}, {0}), D({1, 2, 1}, {1, 1}), D({1, 1, 1}, {2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = RNN <direction = \"bidirectional\"> (X, W, R)", 14, in),
                    kInvalidArgument);
}

TEST_F(RnnTest, GruLinearBeforeResetChangesWhereTheResetGateApplies) {
  // hidden 1, input 1, one step from h0 = 0.5 with x = 1.
  // W = [Wz, Wr, Wh], R = [Rz, Rr, Rh], B = [Wbz, Wbr, Wbh, Rbz, Rbr, Rbh].
  const double wz = 0.3, wr = -0.4, wh = 0.8, rz = 0.5, rr = 0.7, rh = -0.6;
  const double bz = 0.1, br = 0.2, bh = 0.3, cz = -0.1, cr = 0.05, ch = 0.4, h0 = 0.5, x = 1;
  const std::vector<Value> in = {D({1, 1, 1}, {x}),
                                 D({1, 3, 1}, {wz, wr, wh}),
                                 D({1, 3, 1}, {rz, rr, rh}),
                                 D({1, 6}, {bz, br, bh, cz, cr, ch}),
                                 Value(),
                                 D({1, 1, 1}, {h0})};
  const double z = Sigmoid(wz * x + rz * h0 + bz + cz);
  const double r = Sigmoid(wr * x + rr * h0 + br + cr);
  const double cand0 = std::tanh(wh * x + (r * h0) * rh + ch + bh);
  const double cand1 = std::tanh(wh * x + r * (h0 * rh + ch) + bh);
  ASSERT_OK_AND_ASSIGN(
      auto out0, RunNode(registry_, "Y, Y_h = GRU <hidden_size = 1> (X, W, R, B, L, H)", 14, in));
  EXPECT_THAT(Doubles(out0[1]), ElementsAre(DoubleNear((1 - z) * cand0 + z * h0, 1e-12)));
  ASSERT_OK_AND_ASSIGN(
      auto out1,
      RunNode(registry_,
              "Y, Y_h = GRU <hidden_size = 1, linear_before_reset = 1> (X, W, R, B, L, H)", 14,
              in));
  EXPECT_THAT(Doubles(out1[1]), ElementsAre(DoubleNear((1 - z) * cand1 + z * h0, 1e-12)));
}

TEST_F(RnnTest, LstmPeepholesAndCellState) {
  // hidden 1, input 1, one step. Gate order in W, R, B: i, o, f, c; peepholes: i, o, f.
  const double x = 0.7, h0 = 0.2, c0 = -0.3;
  const std::vector<double> w = {0.1, 0.2, 0.3, 0.4}, r = {-0.5, 0.6, -0.7, 0.8};
  const std::vector<double> b = {0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08};
  const std::vector<double> p = {0.9, -0.8, 0.7};
  auto pre = [&](int g) { return w[g] * x + r[g] * h0 + b[g] + b[4 + g]; };
  const double i = Sigmoid(pre(0) + p[0] * c0);
  const double f = Sigmoid(pre(2) + p[2] * c0);
  const double c = f * c0 + i * std::tanh(pre(3));
  const double o = Sigmoid(pre(1) + p[1] * c);
  const double h = o * std::tanh(c);
  const std::vector<Value> in = {D({1, 1, 1}, {x}),  D({1, 4, 1}, w), D({1, 4, 1}, r),
                                 D({1, 8}, b),       Value(),         D({1, 1, 1}, {h0}),
                                 D({1, 1, 1}, {c0}), D({1, 3}, p)};
  ASSERT_OK_AND_ASSIGN(
      auto out,
      RunNode(registry_, "Y, Y_h, Y_c = LSTM <hidden_size = 1> (X, W, R, B, L, H, C, P)", 14, in));
  EXPECT_THAT(Doubles(out[0]), ElementsAre(DoubleNear(h, 1e-12)));
  EXPECT_THAT(Doubles(out[1]), ElementsAre(DoubleNear(h, 1e-12)));
  EXPECT_THAT(Doubles(out[2]), ElementsAre(DoubleNear(c, 1e-12)));
  // input_forget couples the forget gate to the input gate: f = 1 - i.
  const double c_coupled = (1 - i) * c0 + i * std::tanh(pre(3));
  ASSERT_OK_AND_ASSIGN(
      auto coupled,
      RunNode(registry_,
              "Y, Y_h, Y_c = LSTM <hidden_size = 1, input_forget = 1> (X, W, R, B, L, H, C, P)", 14,
              in));
  EXPECT_THAT(Doubles(coupled[2]), ElementsAre(DoubleNear(c_coupled, 1e-12)));
}

TEST_F(RnnTest, LstmActivationParametersAreConsumedInOrder) {
  // f = HardSigmoid(alpha 0.3, beta 0.4), g = Tanh, h = Affine(alpha 2, beta 0.5).
  const double x = 0.5;
  const std::vector<double> w = {0.2, -0.3, 0.4, 0.6};
  const std::vector<Value> in = {D({1, 1, 1}, {x}), D({1, 4, 1}, w), D({1, 4, 1}, {0, 0, 0, 0})};
  auto hs = [](double v) { return std::max(0.0, std::min(1.0, 0.3 * v + 0.4)); };
  const double i = hs(w[0] * x), o = hs(w[1] * x), f = hs(w[2] * x);
  const double c = f * 0 + i * std::tanh(w[3] * x);
  const double h = o * (2 * c + 0.5);
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_,
                        "Y, Y_h, Y_c = LSTM <hidden_size = 1, activations = [\"HardSigmoid\", "
                        "\"Tanh\", \"Affine\"], activation_alpha = [0.3, 2.0], activation_beta = "
                        "[0.4, 0.5]> (X, W, R)",
                        7, in));
  EXPECT_THAT(Doubles(out[1]), ElementsAre(DoubleNear(h, 1e-6)));
  EXPECT_THAT(Doubles(out[2]), ElementsAre(DoubleNear(c, 1e-6)));
}

TEST_F(RnnTest, HalfAndFloatComputeLikeDouble) {
  const std::vector<double> xd = Pattern(4, 0.1), wd = Pattern(12, 0.2);
  ASSERT_OK_AND_ASSIGN(
      auto ref, RunNode(registry_, "Y, Y_h = GRU <hidden_size = 2> (X, W, R)", 14,
                        {D({2, 1, 2}, xd), D({1, 6, 2}, wd), D({1, 6, 2}, Pattern(12, 0.3))}));
  auto to_float = [](const std::vector<double>& v) {
    return std::vector<float>(v.begin(), v.end());
  };
  ASSERT_OK_AND_ASSIGN(auto f32,
                       RunNode(registry_, "Y, Y_h = GRU <hidden_size = 2> (X, W, R)", 14,
                               {TensorValue<float>({2, 1, 2}, to_float(xd)),
                                TensorValue<float>({1, 6, 2}, to_float(wd)),
                                TensorValue<float>({1, 6, 2}, to_float(Pattern(12, 0.3)))}));
  ASSERT_OK_AND_ASSIGN(
      auto f16, RunNode(registry_, "Y, Y_h = GRU <hidden_size = 2> (X, W, R)", 14,
                        {HalfValue({2, 1, 2}, to_float(xd)), HalfValue({1, 6, 2}, to_float(wd)),
                         HalfValue({1, 6, 2}, to_float(Pattern(12, 0.3)))}));
  std::vector<double> expected = Doubles(ref[0]);
  std::vector<float> got32 = ValuesOf<float>(f32[0]);
  std::vector<float> got16 = HalfValuesOf<Float16>(f16[0]);
  ASSERT_EQ(got16.size(), expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_NEAR(got32[k], expected[k], 1e-6);
    EXPECT_NEAR(got16[k], expected[k], 5e-3);
  }
}

TEST_F(RnnTest, MixedElementTypesAreRejected) {
  EXPECT_FALSE(RunNode(registry_, "Y = RNN (X, W, R)", 14,
                       {D({1, 1, 1}, {0}), TensorValue<float>({1, 1, 1}, {1}), D({1, 1, 1}, {2})})
                   .ok());
}

TEST_F(RnnTest, Bfloat16FromVersion22) {
  // Each op at version 22 on bfloat16 inputs against its double result; version 14 rejects them.
  struct Case {
    const char* node;
    int gates;
  };
  for (const Case& c : {Case{"Y, Y_h = RNN <hidden_size = 2> (X, W, R)", 1},
                        Case{"Y, Y_h = GRU <hidden_size = 2> (X, W, R)", 3},
                        Case{"Y, Y_h = LSTM <hidden_size = 2> (X, W, R)", 4}}) {
    const int64_t rows = 2 * c.gates;
    const std::vector<double> xd = Pattern(4, 0.1), wd = Pattern(rows * 2, 0.2),
                              rd = Pattern(rows * 2, 0.3);
    // The inputs rounded to bfloat16 first, so both runs see the same values.
    auto rounded = [](const std::vector<double>& v) {
      std::vector<float> out;
      for (double d : v) out.push_back(BFloat16::FromFloat(static_cast<float>(d)).ToFloat());
      return out;
    };
    auto widen = [](const std::vector<float>& v) {
      return std::vector<double>(v.begin(), v.end());
    };
    ASSERT_OK_AND_ASSIGN(
        auto ref, RunNode(registry_, c.node, 22,
                          {D({2, 1, 2}, widen(rounded(xd))), D({1, rows, 2}, widen(rounded(wd))),
                           D({1, rows, 2}, widen(rounded(rd)))}));
    const std::vector<Value> bf = {BFloat16Value({2, 1, 2}, rounded(xd)),
                                   BFloat16Value({1, rows, 2}, rounded(wd)),
                                   BFloat16Value({1, rows, 2}, rounded(rd))};
    ASSERT_OK_AND_ASSIGN(auto got, RunNode(registry_, c.node, 22, bf));
    const std::vector<double> expected = Doubles(ref[0]);
    const std::vector<float> values = HalfValuesOf<BFloat16>(got[0]);
    ASSERT_EQ(values.size(), expected.size()) << c.node;
    for (size_t k = 0; k < expected.size(); ++k) {
      EXPECT_NEAR(values[k], expected[k], 1e-2) << c.node;
    }
    EXPECT_FALSE(RunNode(registry_, c.node, 14, bf).ok()) << c.node;
  }
}

}  // namespace
}  // namespace onnxgate::ref
