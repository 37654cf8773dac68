// Tests of optimization level 2: each fusion applies where every condition holds, keeps the
// numbers (level 0 and level 2 outputs on ref within a tight tolerance), names the fused node
// after the nodes it replaces, and is skipped, never an error, where a condition fails.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/optimizer/optimizer.h"
#include "runtime/optimizer/optimizer_test_util.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using namespace optimizer_test;

// "{v0, v1, ...}": n values in [-1, 1) (or [lo, lo + 1) with `lo`) from a fixed sequence.
std::string Values(int n, uint32_t seed, double lo = -1.0, double span = 2.0) {
  std::string s = "{";
  uint32_t state = seed * 2654435761u + 7;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    const double v = lo + span * static_cast<double>(state >> 8) / 16777216.0;
    s += (i ? ", " : "") + std::to_string(v);
  }
  return s + "}";
}

// Replaces every "$name" in `text` with its value, longer names first ("$bias" before "$b");
// of two entries for one name the first wins.
std::string Fill(std::string text, std::vector<std::pair<std::string, std::string>> vars) {
  std::stable_sort(vars.begin(), vars.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [name, value] : vars) {
    for (size_t pos; (pos = text.find("$" + name)) != std::string::npos;) {
      text.replace(pos, name.size() + 1, value);
    }
  }
  return text;
}

// Optimizes `text` at level 2 and checks the fused node and the numbers against level 0.
void ExpectFusion(const std::string& text, const std::vector<std::string>& ops,
                  const std::vector<std::string>& fused, const std::vector<NamedValue>& feeds,
                  double rtol = 1e-5, double atol = 1e-5) {
  auto model = LoadText(text);
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 2, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(OpTypes(*optimized), ::testing::ElementsAreArray(ops));
  EXPECT_THAT(report.fused, ::testing::ElementsAreArray(fused));
  ExpectClose(RunOnRef(model, feeds), RunOnRef(optimized, feeds), rtol, atol);
}

// Optimizes `text` at level 2 and checks that no fusion applied.
void ExpectNoFusion(const std::string& text) {
  auto model = LoadText(text);
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 2, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(report.fused, IsEmpty());
  EXPECT_EQ(OpTypes(*optimized), OpTypes(*model));
}

// ---------------------------------------------------------------------------------------------
// Conv + BatchNormalization

constexpr char kConvBn[] = R"(
<ir_version: 8, opset_import: ["" : $opset]>
g (float[1,2,5,5] X$w_input) => (float[1,3,5,5] Y$c_output)
  <float[3,2,3,3] W = $w, float[3] B = $b, float[3] scale = $scale, float[3] bias = $bias,
   float[3] mean = $mean, float[3] var = $var> {
  [conv1] C = Conv <pads = [1, 1, 1, 1]> (X, W, B)
  [bn1] Y = BatchNormalization <epsilon = 0.001$bn_attrs> (C, scale, bias, mean, var)
}
)";

std::string ConvBn(std::vector<std::pair<std::string, std::string>> extra = {}) {
  std::vector<std::pair<std::string, std::string>> vars = std::move(extra);
  for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{{"opset", "17"},
                                                                      {"w_input", ""},
                                                                      {"c_output", ""},
                                                                      {"bn_attrs", ""},
                                                                      {"w", Values(54, 1)},
                                                                      {"b", Values(3, 2)},
                                                                      {"scale", Values(3, 3, 0.5)},
                                                                      {"bias", Values(3, 4)},
                                                                      {"mean", Values(3, 5)},
                                                                      {"var", Values(3, 6, 0.1)}}) {
    vars.emplace_back(k, v);  // the first of two entries for one name wins
  }
  return Fill(kConvBn, vars);
}

TEST(ConvBatchNormFusionTest, FoldsTheNormalizationIntoTheConvWeights) {
  ExpectFusion(ConvBn(), {"Conv"}, {"conv1+bn1"}, {{"X", RandomFloats({1, 2, 5, 5}, 11)}});
  // Without a Conv bias, and at the oldest BatchNormalization this fusion takes (7, spatial).
  std::string no_bias = ConvBn({{"opset", "7"}});
  no_bias.replace(no_bias.find("(X, W, B)"), 9, "(X, W)");
  ExpectFusion(no_bias, {"Conv"}, {"conv1+bn1"}, {{"X", RandomFloats({1, 2, 5, 5}, 12)}});
  // Double weights are scaled in double and stay double.
  std::string doubles = ConvBn();
  for (size_t at = doubles.find("float"); at != std::string::npos; at = doubles.find("float", at)) {
    doubles.replace(at, 5, "double");
  }
  const Tensor x = RandomFloats({1, 2, 5, 5}, 13).tensor();
  Tensor x_double(DataType::kDouble, x.shape());
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    x_double.mutable_data<double>()[i] = x.data<float>()[i];
  }
  ExpectFusion(doubles, {"Conv"}, {"conv1+bn1"}, {{"X", Value::FromTensor(std::move(x_double))}},
               1e-12, 1e-12);
}

TEST(ConvBatchNormFusionTest, IsSkippedWhereItWouldNotBeExact) {
  // The Conv output is also a graph output.
  ExpectNoFusion(ConvBn({{"c_output", ", float[1,3,5,5] C"}}));
  // W can be fed by the caller (a graph input with a default), so it is not a constant.
  ExpectNoFusion(ConvBn({{"w_input", ", float[3,2,3,3] W"}}));
  // Training mode normalizes with the batch's own statistics.
  ExpectNoFusion(ConvBn({{"bn_attrs", ", training_mode = 1"}}));
  // BatchNormalization-6 and older (is_test, consumed_inputs) are left alone.
  ExpectNoFusion(ConvBn({{"opset", "6"}, {"bn_attrs", ", is_test = 1"}}));
}

// ---------------------------------------------------------------------------------------------
// MatMul + Add -> Gemm

constexpr char kMatMulAdd[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float$a A, float$c_shape C$b_input) => (float$y Y$p_output) <float[3,5] B = $b> {
  [mm] P = MatMul(A, B)
  [add] Y = Add($add_inputs)
}
)";

std::string MatMulAdd(std::vector<std::pair<std::string, std::string>> extra = {}) {
  for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{{"a", "[4,3]"},
                                                                      {"c_shape", "[5]"},
                                                                      {"y", "[4,5]"},
                                                                      {"b_input", ""},
                                                                      {"p_output", ""},
                                                                      {"add_inputs", "P, C"},
                                                                      {"b", Values(15, 21)}}) {
    extra.emplace_back(k, v);
  }
  return Fill(kMatMulAdd, extra);
}

TEST(MatMulAddFusionTest, BecomesGemmWhenCBroadcastsToTheProduct) {
  ExpectFusion(MatMulAdd(), {"Gemm"}, {"mm+add"},
               {{"A", RandomFloats({4, 3}, 1)}, {"C", RandomFloats({5}, 2)}});
  ExpectFusion(MatMulAdd({{"add_inputs", "C, P"}, {"c_shape", "[4,1]"}}), {"Gemm"}, {"mm+add"},
               {{"A", RandomFloats({4, 3}, 3)}, {"C", RandomFloats({4, 1}, 4)}});
  ExpectFusion(MatMulAdd({{"c_shape", "[1,5]"}}), {"Gemm"}, {"mm+add"},
               {{"A", RandomFloats({4, 3}, 5)}, {"C", RandomFloats({1, 5}, 6)}});
}

TEST(MatMulAddFusionTest, IsSkippedWhereGemmCannotSayTheSame) {
  // A of rank 3: Gemm multiplies matrices only.
  ExpectNoFusion(MatMulAdd({{"a", "[2,4,3]"}, {"y", "[2,4,5]"}}));
  // C would broadcast the product to a larger shape.
  ExpectNoFusion(MatMulAdd({{"c_shape", "[2,4,5]"}, {"y", "[2,4,5]"}}));
  // B is overridable.
  ExpectNoFusion(MatMulAdd({{"b_input", ", float[3,5] B"}}));
  // The product is needed on its own.
  ExpectNoFusion(MatMulAdd({{"p_output", ", float[4,5] P"}}));
  // M is unknown, so a C of M rows cannot be proven to match.
  ExpectNoFusion(MatMulAdd({{"a", "[M,3]"}, {"c_shape", "[4,1]"}, {"y", "[4,5]"}}));
}

// ---------------------------------------------------------------------------------------------
// LayerNormalization

constexpr char kLayerNorm[] = R"(
<ir_version: 8, opset_import: ["" : $opset]>
g (float[2,3,4] X) => (float[2,3,4] Y)
  <float$gshape gamma = $gamma, float[4] beta = $beta, float e = {0.00001}, float two = {2.0},
   int64[1] ax = {-1}> {
  [mean] M = ReduceMean $reduce
  [sub] D = Sub(X, M)
  [pow] P = $square
  [var] V = ReduceMean $reduce_p
  [addeps] VE = Add(V, e)
  [sqrt] S = Sqrt(VE)
  [div] N = Div(D, S)
  [scale] G = Mul(N, gamma)
  [shift] Y = Add(G, beta)
}
)";

std::string LayerNorm(std::vector<std::pair<std::string, std::string>> extra = {}) {
  for (auto [k, v] :
       std::vector<std::pair<std::string, std::string>>{{"opset", "17"},
                                                        {"gshape", "[4]"},
                                                        {"gamma", Values(4, 31, 0.5)},
                                                        {"beta", Values(4, 32)},
                                                        {"reduce", "<axes = [-1]> (X)"},
                                                        {"reduce_p", "<axes = [-1]> (P)"},
                                                        {"square", "Pow(D, two)"}}) {
    extra.emplace_back(k, v);
  }
  return Fill(kLayerNorm, extra);
}

TEST(LayerNormalizationFusionTest, ThePatternBecomesOneNode) {
  const std::vector<NamedValue> feeds = {{"X", RandomFloats({2, 3, 4}, 41)}};
  ExpectFusion(LayerNorm(), {"LayerNormalization"}, {"mean..shift"}, feeds);
  // Opset 18 gives ReduceMean its axes as an input; the square written as Mul(D, D).
  ExpectFusion(LayerNorm({{"opset", "18"},
                          {"reduce", "(X, ax)"},
                          {"reduce_p", "(P, ax)"},
                          {"square", "Mul(D, D)"}}),
               {"LayerNormalization"}, {"mean..shift"}, feeds);
}

TEST(LayerNormalizationFusionTest, IsSkippedWhereTheOpIsMissingOrTheShapesDiffer) {
  // LayerNormalization arrives in opset 17.
  ExpectNoFusion(LayerNorm({{"opset", "16"}}));
  // A scale of another shape than the normalized dims (it broadcasts, but is not Scale).
  ExpectNoFusion(LayerNorm({{"gshape", "[1,4]"}, {"gamma", Values(4, 33)}}));
  // Statistics over the middle axis are not a layer normalization of the last axes.
  ExpectNoFusion(LayerNorm({{"reduce", "<axes = [1]> (X)"}, {"reduce_p", "<axes = [1]> (P)"}}));
}

// ---------------------------------------------------------------------------------------------
// Gelu

constexpr char kGelu[] = R"(
<ir_version: 9, opset_import: ["" : $opset]>
g (float[2,3] X) => (float[2,3] Y$extra_output)
  <float s = {$sqrt2}, float r = {0.70710678}, float one = {1.0}, float half = {0.5}> {
$body
}
)";

std::string Gelu(const std::string& body,
                 std::vector<std::pair<std::string, std::string>> extra = {}) {
  extra.emplace_back("body", body);
  for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{
           {"opset", "20"}, {"sqrt2", "1.41421356"}, {"extra_output", ""}}) {
    extra.emplace_back(k, v);
  }
  return Fill(kGelu, extra);
}

constexpr char kGeluXTimesAThenHalf[] = R"(
  [div] D = Div(X, s)
  [erf] E = Erf(D)
  [plus] A = Add(E, one)
  [mul] M = Mul(X, A)
  [half] Y = Mul(M, half))";

TEST(GeluFusionTest, TheWrittenOutFormsBecomeGelu) {
  const std::vector<NamedValue> feeds = {{"X", RandomFloats({2, 3}, 51)}};
  ExpectFusion(Gelu(kGeluXTimesAThenHalf), {"Gelu"}, {"div..half"}, feeds);
  // x * 0.5 first, the scaling as a product with 1/sqrt(2).
  ExpectFusion(Gelu(R"(
  [h] H = Mul(half, X)
  [scaled] D = Mul(X, r)
  [erf] E = Erf(D)
  [plus] A = Add(one, E)
  [out] Y = Mul(H, A))"),
               {"Gelu"}, {"h..out"}, feeds);
  // (1 + erf) * 0.5, then times x.
  ExpectFusion(Gelu(R"(
  [div] D = Div(X, s)
  [erf] E = Erf(D)
  [plus] A = Add(E, one)
  [half] M = Mul(A, half)
  [out] Y = Mul(M, X))"),
               {"Gelu"}, {"div..out"}, feeds);
}

TEST(GeluFusionTest, OnnxsOwnFunctionBodyBecomesGeluOnceItsConstantsAreFolded) {
  // Gelu-20's function body as ONNX writes it (the onnx-node suite's test_gelu_*_expanded):
  // constants cast like X, sqrt(2) computed by Sqrt, 1 + erf as Sum. Level 1 folds the
  // constants; the fusion then sees the pattern.
  ExpectFusion(R"(
<ir_version: 9, opset_import: ["" : 20]>
g (float[2,3] X) => (float[2,3] Y) {
  [k2] Two = Constant <value = float {2.0}> ()
  [c2] TwoX = CastLike(Two, X)
  [k1] One = Constant <value = float {1.0}> ()
  [c1] OneX = CastLike(One, X)
  [kh] Half = Constant <value = float {0.5}> ()
  [ch] HalfX = CastLike(Half, X)
  [root] Root = Sqrt(TwoX)
  [div] D = Div(X, Root)
  [erf] E = Erf(D)
  [sum] A = Sum(E, OneX)
  [mul] M = Mul(HalfX, X)
  [out] Y = Mul(M, A)
}
)",
               {"Gelu"}, {"div..out"}, {{"X", RandomFloats({2, 3}, 52)}});
}

TEST(GeluFusionTest, IsSkippedWithoutTheOpOrWithOtherConstants) {
  // Gelu arrives in opset 20.
  ExpectNoFusion(Gelu(kGeluXTimesAThenHalf, {{"opset", "19"}}));
  // 1.4142 is not sqrt(2): fusing would change the numbers.
  ExpectNoFusion(Gelu(kGeluXTimesAThenHalf, {{"sqrt2", "1.4142"}}));
  // Erf's output is needed on its own.
  ExpectNoFusion(Gelu(kGeluXTimesAThenHalf, {{"extra_output", ", float[2,3] E"}}));
}

}  // namespace
}  // namespace onnxgate
