// The dnnl provider in the built-in runtime: its host kernels borrowed from the host provider it
// is given, offered after ref, its claims, nodes it declines
// falling back to ref with the placement recorded (or refused under --fallback forbid), a
// constant W reordered once and reused, one loaded model run from many threads at once,
// intra-op threads reaching its kernels, activations left in oneDNN's layouts between its
// kernels (Conv's read by ConvTranspose among them) with a host copy only where a value leaves
// them, Gather, Erf and Identity on dnnl, the written-out Gelu claimed as one primitive, and a
// MatMul claimed with its bias and Gelu, and one claimed with the Transposes and scale around it.
#include "runtime/ep/dnnl/dnnl_provider.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <limits>
#include <map>
#include <thread>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/model/model_test_util.h"
#include "runtime/session/session.h"

namespace onnxgate {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Y = Neg(Relu(Conv(X, W, B))) with W and B initializers; dnnl takes Conv and Relu, not Neg.
constexpr char kConvReluNeg[] = R"(
<
  ir_version: 8,
  opset_import: ["" : 17]
>
g (float[1, 2, 4, 4] X) => (float[1, 3, 4, 4] Y)
<float[3, 2, 3, 3] W = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9,
                        -0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8, -0.9,
                        0.2, 0.2, 0.2, -0.4, -0.4, -0.4, 0.6, 0.6, 0.6,
                        1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0,
                        0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                        -0.3, 0.1, -0.3, 0.1, -0.3, 0.1, -0.3, 0.1, -0.3},
 float[3] B = {0.5, -1.0, 0.25}> {
  C = Conv <pads = [1, 1, 1, 1]> (X, W, B)
  R = Relu(C)
  Y = Neg(R)
}
)";

LoadOptions On(std::vector<std::string> providers,
               FallbackPolicy fallback = FallbackPolicy::kAllow) {
  LoadOptions options;
  options.providers = std::move(providers);
  options.fallback = fallback;
  return options;
}

Value Input(uint32_t seed) {
  std::vector<float> v(32);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>((i * 7 + seed * 13) % 11) / 4.0f - 1.25f;
  }
  return Value::FromTensor(Tensor::FromVector<float>(Shape{1, 2, 4, 4}, v));
}

void ExpectNear(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.shape(), want.shape());
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    EXPECT_NEAR(got.data<float>()[i], want.data<float>()[i], 1e-5f) << "element " << i;
  }
}

// The dnnl provider with ref as its host provider, as the built-in runtime sets it up.
StatusOr<std::shared_ptr<const ExecutionProvider>> DnnlOnRef() {
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> ref, BuiltinRefProvider());
  return CreateDnnlProvider(std::move(ref));
}

TEST(DnnlProviderTest, NeedsAHostProvider) {
  auto provider = CreateDnnlProvider(nullptr);
  EXPECT_EQ(provider.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(provider.status().message(), HasSubstr("needs a host provider"));
}

// The kernels dnnl runs on the host are its host provider's: Erf, Gather, Reshape and Flatten
// come out of the lender's registry, so a host provider without them leaves dnnl unable to
// build those nodes, and says which provider lacked the kernel.
TEST(DnnlProviderTest, BorrowsItsHostKernelsFromTheHostProvider) {
  auto empty = RegistryProvider::Create("empty-host", [](KernelRegistry&) { return OkStatus(); });
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  auto provider = CreateDnnlProvider(*empty);
  if (!provider.ok()) GTEST_SKIP() << provider.status().ToString();
  onnx::NodeProto erf;
  erf.set_op_type("Erf");
  erf.add_input("X");
  erf.add_output("Y");
  auto def = (*provider)->registry().Find("", "Erf", 13, {{"T", DataType::kFloat}});
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  auto without = (*def)->factory(KernelInfo(erf, 13, {DataType::kFloat}));
  EXPECT_EQ(without.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(without.status().message(), HasSubstr("provider 'empty-host' lends no kernel"));
  auto with_ref = DnnlOnRef();
  ASSERT_TRUE(with_ref.ok()) << with_ref.status().ToString();
  auto ref_def = (*with_ref)->registry().Find("", "Erf", 13, {{"T", DataType::kFloat}});
  ASSERT_TRUE(ref_def.ok()) << ref_def.status().ToString();
  EXPECT_TRUE((*ref_def)->factory(KernelInfo(erf, 13, {DataType::kFloat})).ok());
}

TEST(DnnlProviderTest, IsOfferedAfterRefAndClaimsFloatOps) {
  auto runtime = CreateBuiltinRuntime();
  const std::vector<std::string> providers = runtime->providers();  // then opencl, when built
  ASSERT_GE(providers.size(), 2u);
  EXPECT_THAT(std::vector<std::string>(providers.begin(), providers.begin() + 2),
              ElementsAre("ref", "dnnl"));
  auto claims = runtime->Claims("dnnl");
  ASSERT_TRUE(claims.ok()) << claims.status().ToString();
  bool conv = false;
  for (const OpClaim& claim : *claims) {
    if (claim.op_type == "Conv") {
      conv = true;
      EXPECT_EQ(claim.since_version, 11);
      EXPECT_EQ(claim.until_version, 22);
    }
  }
  EXPECT_TRUE(conv);
  auto threads = runtime->MaxIntraOpThreads("dnnl");  // the processors OpenMP may use
  ASSERT_TRUE(threads.ok());
  EXPECT_GE(*threads, 1);
}

TEST(DnnlProviderTest, DeclinedNodesFallBackToRefAndThePlacementSaysSo) {
  ScratchDir dir;
  const std::string path = dir.WriteModel("conv_relu_neg.onnx", kConvReluNeg);
  auto runtime = CreateBuiltinRuntime();
  auto on_dnnl = runtime->Load(path, On({"dnnl"}));
  ASSERT_TRUE(on_dnnl.ok()) << on_dnnl.status().ToString();
  const std::vector<NodePlacement> placements = (*on_dnnl)->placements();
  ASSERT_EQ(placements.size(), 3u);
  EXPECT_EQ(placements[0].op_type, "Conv");
  EXPECT_EQ(placements[0].provider, "dnnl");
  EXPECT_EQ(placements[1].provider, "dnnl");
  EXPECT_EQ(placements[2].op_type, "Neg");
  EXPECT_EQ(placements[2].provider, "ref");
  ASSERT_EQ(placements[2].declines.size(), 1u);
  EXPECT_EQ(placements[2].declines[0].provider, "dnnl");
  EXPECT_THAT(placements[2].declines[0].reason, HasSubstr("Neg"));

  auto on_ref = runtime->Load(path, On({"ref"}));
  ASSERT_TRUE(on_ref.ok()) << on_ref.status().ToString();
  for (uint32_t seed = 0; seed < 3; ++seed) {  // the second run uses the reordered W as it is
    auto got = (*on_dnnl)->Run({{"X", Input(seed)}});
    auto want = (*on_ref)->Run({{"X", Input(seed)}});
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    ExpectNear((*got)[0].tensor(), (*want)[0].tensor());
  }
}

// A residual block with 16 channels, which oneDNN runs in a blocked layout: every node but Neg
// (ref) is dnnl's; Neg and the output Y need Z on the host.
constexpr char kResidualBlock[] = R"(
<
  ir_version: 8,
  opset_import: ["" : 17]
>
g (float[1, 16, 6, 6] X, float[16, 16, 3, 3] W, float[16, 16, 1, 1] V) => (float[1, 16, 3, 3] Y, float[1, 16, 3, 3] N)
<float lo = {0.0}, float hi = {6.0}> {
  C = Conv <pads = [1, 1, 1, 1]> (X, W)
  R = Relu(C)
  S = Conv (R, V)
  A = Add(S, C)
  L = Clip(A, lo, hi)
  P = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (L)
  Q = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [1, 1]> (P)
  E = Sigmoid(Q)
  Y = Mul(E, P)
  N = Neg(Y)
}
)";

Value Seeded(Shape shape, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(shape.NumElements()));
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>(static_cast<int>((i * 37 + seed * 101) % 23) - 11) / 16.0f;
  }
  return Value::FromTensor(Tensor::FromVector<float>(std::move(shape), v));
}

// One model in ONNX text loaded twice: on dnnl (then ref) and on ref alone; null sessions (and a
// test failure) when it does not load.
struct DnnlAndRefSessions {
  std::unique_ptr<const Session> on_dnnl, on_ref;
};
DnnlAndRefSessions SessionsOf(const std::string& text) {
  DnnlAndRefSessions out;
  auto proto = Model::ParseText(text, "model.onnx");
  EXPECT_TRUE(proto.ok()) << proto.status().ToString();
  if (!proto.ok()) return out;
  auto model = Model::FromProto(*proto, ".", "model.onnx");
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  auto dnnl = DnnlOnRef();
  auto ref = BuiltinRefProvider();
  EXPECT_TRUE(dnnl.ok() && ref.ok());
  if (!model.ok() || !dnnl.ok() || !ref.ok()) return out;
  auto on_dnnl = Session::Create(*model, {*dnnl, *ref});
  auto on_ref = Session::Create(*model, {*ref});
  EXPECT_TRUE(on_dnnl.ok()) << on_dnnl.status().ToString();
  EXPECT_TRUE(on_ref.ok()) << on_ref.status().ToString();
  if (on_dnnl.ok() && on_ref.ok()) {
    out.on_dnnl = std::move(on_dnnl).value();
    out.on_ref = std::move(on_ref).value();
  }
  return out;
}

// Runs both sessions on `feeds` and compares every output within the conformance suites' default
// tolerance (rtol 1e-3, atol 1e-7), NaN only where ref has NaN.
void ExpectSameOutputs(const DnnlAndRefSessions& sessions, const std::vector<NamedValue>& feeds) {
  auto got = sessions.on_dnnl->Run(feeds);
  auto want = sessions.on_ref->Run(feeds);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  ASSERT_EQ(got->size(), want->size());
  for (size_t o = 0; o < want->size(); ++o) {
    const Tensor& g = (*got)[o].tensor();
    const Tensor& r = (*want)[o].tensor();
    ASSERT_EQ(g.shape(), r.shape());
    for (int64_t i = 0; i < r.NumElements(); ++i) {
      const float gv = g.data<float>()[i], rv = r.data<float>()[i];
      if (std::isnan(rv)) {
        EXPECT_TRUE(std::isnan(gv)) << "output " << o << " element " << i << ": " << gv;
      } else if (std::isinf(rv)) {
        EXPECT_EQ(gv, rv) << "output " << o << " element " << i;
      } else {
        EXPECT_NEAR(gv, rv, 1e-7 + 1e-3 * std::fabs(rv)) << "output " << o << " element " << i;
      }
    }
  }
}

TEST(DnnlProviderTest, ActivationsStayInOneDnnLayoutsUntilAValueLeavesTheProvider) {
  DnnlAndRefSessions sessions = SessionsOf(kResidualBlock);
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  const auto& on_dnnl = sessions.on_dnnl;
  const auto& on_ref = sessions.on_ref;
  for (const NodePlacement& p : on_dnnl->placements()) {
    EXPECT_EQ(p.provider, p.op_type == "Neg" ? "ref" : "dnnl") << p.node_name;
  }
  const std::vector<NamedValue> feeds = {{"X", Seeded({1, 16, 6, 6}, 1)},
                                         {"W", Seeded({16, 16, 3, 3}, 2)},
                                         {"V", Seeded({16, 16, 1, 1}, 3)}};
  TransferStats transfers;
  auto got = on_dnnl->Run(feeds, &transfers);
  auto want = on_ref->Run(feeds);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  ExpectNear((*got)[0].tensor(), (*want)[0].tensor());
  ExpectNear((*got)[1].tensor(), (*want)[1].tensor());
  // Y alone leaves dnnl (for Neg and as an output: one copy), 16 x 3 x 3 floats.
  EXPECT_EQ(transfers.count, 1);
  EXPECT_EQ(transfers.bytes, 16 * 3 * 3 * 4);
}

// ConvTranspose reads Conv's resident Y (16 channels, a blocked layout) as it is, with a constant
// W (an initializer, reordered once into oneDNN's blocked weights) and bias, and leaves its own Y
// resident; the second and third runs reuse the primitive and the reordered W. A second
// ConvTranspose, and a Conv, take the resident value as their W.
TEST(DnnlProviderTest, ConvTransposeReadsAResidentXWithAConstantW) {
  std::string w = "float[16, 16, 3, 3] W = {";
  for (int i = 0; i < 16 * 16 * 3 * 3; ++i) {
    w += (i > 0 ? ", " : "") + std::to_string(static_cast<float>((i * 5) % 13 - 6) / 8.0f);
  }
  w += "}";
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 5, 5] X, float[16, 16, 1, 1] V, float[1, 1, 2, 2] Z) => (float[1, 16, 5, 6] Y, float[1, 16, 6, 6] U, float[1, 1, 1, 1] T)
<)" + w + R"(, float[16] B = {0.5, -1.0, 0.25, 2.0, 0.5, -1.0, 0.25, 2.0,
                            0.5, -1.0, 0.25, 2.0, 0.5, -1.0, 0.25, 2.0}> {
  C = Conv (X, V)
  Y = ConvTranspose <pads = [1, 0, 1, 1]> (C, W, B)
  U = ConvTranspose (Z, C)
  T = Conv (X, C)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  for (const NodePlacement& p : sessions.on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
  }
  const Value v = Seeded({16, 16, 1, 1}, 7);
  for (uint32_t seed = 0; seed < 3; ++seed) {
    const std::vector<NamedValue> feeds = {
        {"X", Seeded({1, 16, 5, 5}, seed)}, {"V", v}, {"Z", Seeded({1, 1, 2, 2}, seed + 3)}};
    ExpectSameOutputs(sessions, feeds);
  }
}

// A constant B of MatMul (2-D: the weights of a 1x1 convolution over A's rows; batched and
// broadcast: column-major matrices) and of Gemm (column-major) is reordered once; the three runs
// (the first makes the primitives, the others reuse them) give ref's results, beside a MatMul
// whose B is not constant.
TEST(DnnlProviderTest, ConstantMatMulAndGemmWeightsAreReorderedOnce) {
  auto initializer = [](const std::string& name, const std::vector<int>& dims) {
    std::string text = "float[";
    int count = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
      text += (i > 0 ? ", " : "") + std::to_string(dims[i]);
      count *= dims[i];
    }
    text += "] " + name + " = {";
    for (int i = 0; i < count; ++i) {
      text += (i > 0 ? ", " : "") + std::to_string(static_cast<float>((i * 7) % 17 - 8) / 8.0f);
    }
    return text + "}";
  };
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3, 4] X, float[3, 4] A, float[4, 5] V) => (float[2, 3, 5] Y, float[2, 3, 5] Z, float[3, 5] G, float[3, 5] H, float[2, 3, 5] U)
<)" + initializer("W", {4, 5}) + ", " + initializer("Wb", {2, 4, 5}) +
                                           ", " + initializer("C", {5}) + R"(> {
  Y = MatMul (X, W)
  Z = MatMul (A, Wb)
  G = Gemm <alpha = 0.5> (A, W, C)
  At = Transpose (A)
  H = Gemm <transA = 1, beta = 2.0> (At, W, C)
  U = MatMul (X, V)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  for (const NodePlacement& p : sessions.on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
  }
  for (uint32_t seed = 0; seed < 3; ++seed) {
    ExpectSameOutputs(sessions, {{"X", Seeded({2, 3, 4}, seed)},
                                 {"A", Seeded({3, 4}, seed + 5)},
                                 {"V", Seeded({4, 5}, seed + 9)}});
  }
}

TEST(DnnlProviderTest, ConvAndItsActivationRunAsOneClaimThatKeepsNaN) {
  // Conv#0 + Relu#1 and Conv#2 + Clip#3 are claimed; Conv#4's output is also a graph output,
  // so its LeakyRelu runs alone. Conv#6 + Relu#7 reads the output of Conv#2 + Clip#3, which is
  // known finite (not scanned) only when the clip ran fused: with a NaN in X it did not.
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 8, 5, 5] X, float[8, 8, 3, 3] W) => (float[1, 8, 5, 5] Y, float[1, 8, 5, 5] K, float[1, 8, 5, 5] L, float[1, 8, 5, 5] M)
<float lo = {-0.5}, float hi = {0.5}> {
  C = Conv <pads = [1, 1, 1, 1]> (X, W)
  R = Relu(C)
  D = Conv <pads = [1, 1, 1, 1]> (R, W)
  Y = Clip(D, lo, hi)
  K = Conv <pads = [1, 1, 1, 1]> (Y, W)
  L = LeakyRelu <alpha = 0.1> (K)
  E = Conv <pads = [1, 1, 1, 1]> (Y, W)
  M = Relu(E)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  const auto& on_dnnl = sessions.on_dnnl;
  const auto& on_ref = sessions.on_ref;
  std::vector<std::string> subgraphs;
  for (const NodePlacement& p : on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
    subgraphs.push_back(p.subgraph);
  }
  EXPECT_THAT(subgraphs, ElementsAre("Conv#0+Relu#1", "Conv#0+Relu#1", "Conv#2+Clip#3",
                                     "Conv#2+Clip#3", "", "", "Conv#6+Relu#7", "Conv#6+Relu#7"));
  Value x = Seeded({1, 8, 5, 5}, 4);
  const Value w = Seeded({8, 8, 3, 3}, 5);
  for (bool with_nan : {false, true}) {
    SCOPED_TRACE(with_nan ? "X holds a NaN" : "X is finite");
    if (with_nan) {
      Tensor t = x.tensor().Clone();
      t.mutable_data<float>()[12] = std::numeric_limits<float>::quiet_NaN();
      x = Value::FromTensor(std::move(t));
    }
    auto got = on_dnnl->Run({{"X", x}, {"W", w}});
    auto want = on_ref->Run({{"X", x}, {"W", w}});
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    for (size_t o = 0; o < want->size(); ++o) {
      const Tensor& g = (*got)[o].tensor();
      const Tensor& r = (*want)[o].tensor();
      ASSERT_EQ(g.shape(), r.shape());
      int nans = 0;
      for (int64_t i = 0; i < r.NumElements(); ++i) {
        const float gv = g.data<float>()[i], rv = r.data<float>()[i];
        if (std::isnan(rv)) {
          ++nans;
          EXPECT_TRUE(std::isnan(gv)) << "output " << o << " element " << i << ": " << gv;
        } else {
          EXPECT_NEAR(gv, rv, 1e-4f * (1.0f + std::fabs(rv))) << "output " << o << " element " << i;
        }
      }
      EXPECT_EQ(nans > 0, with_nan) << "output " << o;
    }
  }
}

// A Conv, the residual Add that alone reads it and the activation after run as one claim: R is
// copied into Y and the convolution adds onto it (oneDNN's sum post-op). A NaN in R alone keeps
// the activation unfused; an R that the Add broadcasts runs the three nodes one by one.
TEST(DnnlProviderTest, AConvItsResidualAddAndActivationRunAsOneClaim) {
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 5, 5] X, float[16, 16, 3, 3] W, float[16, 16, 1, 1] V, float[1, 16, 5, 5] P, float[1, 16, 1, 1] Q) => (float[1, 16, 5, 5] Z, float[1, 16, 5, 5] U)
<float lo = {-0.5}, float hi = {0.5}> {
  C = Conv <pads = [1, 1, 1, 1]> (X, W)
  R = Relu(C)
  D = Conv <pads = [1, 1, 1, 1]> (R, W)
  A = Add(P, D)
  Y = Relu(A)
  E = Conv (Y, V)
  B = Add(E, Q)
  Z = Clip(B, lo, hi)
  F = Conv (Z, V)
  U = Add(F, Y)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  std::vector<std::string> subgraphs;
  for (const NodePlacement& p : sessions.on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
    subgraphs.push_back(p.subgraph);
  }
  EXPECT_THAT(subgraphs, ElementsAre("Conv#0+Relu#1", "Conv#0+Relu#1", "Conv#2+Add#3+Relu#4",
                                     "Conv#2+Add#3+Relu#4", "Conv#2+Add#3+Relu#4",
                                     "Conv#5+Add#6+Clip#7", "Conv#5+Add#6+Clip#7",
                                     "Conv#5+Add#6+Clip#7", "Conv#8+Add#9", "Conv#8+Add#9"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"finite", ""}, {"NaN in the residual P", "P"}, {"NaN in X", "X"}, {"NaN in Q", "Q"}};
  for (const auto& [what, poisoned] : cases) {
    SCOPED_TRACE(what);
    std::vector<NamedValue> feeds = {{"X", Seeded({1, 16, 5, 5}, 1)},
                                     {"W", Seeded({16, 16, 3, 3}, 2)},
                                     {"V", Seeded({16, 16, 1, 1}, 3)},
                                     {"P", Seeded({1, 16, 5, 5}, 4)},
                                     {"Q", Seeded({1, 16, 1, 1}, 5)}};
    for (NamedValue& feed : feeds) {
      if (feed.name != poisoned) continue;
      Tensor t = feed.value.tensor().Clone();
      t.mutable_data<float>()[7] = std::numeric_limits<float>::quiet_NaN();
      feed.value = Value::FromTensor(std::move(t));
    }
    ExpectSameOutputs(sessions, feeds);
  }
}

// An embedding lookup, Erf and Identity stay on dnnl; an index out of range fails the run with
// the node named.
TEST(DnnlProviderTest, GatherErfAndIdentityRunOnDnnl) {
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (int64[2, 3] ids) => (float[2, 3, 4] Y)
<float[5, 4] table = {0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.9, -1.0,
                      1.1, -1.2, 1.3, -1.4, 1.5, -1.6, 1.7, -1.8, 1.9, -2.0}> {
  [embed] G = Gather <axis = 0> (table, ids)
  [erf] E = Erf(G)
  [out] Y = Identity(E)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  for (const NodePlacement& p : sessions.on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
  }
  const Value ids = Value::FromTensor(Tensor::FromVector<int64_t>({2, 3}, {0, 4, -1, 2, -5, 1}));
  auto got = sessions.on_dnnl->Run({{"ids", ids}});
  auto want = sessions.on_ref->Run({{"ids", ids}});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  ExpectNear((*got)[0].tensor(), (*want)[0].tensor());

  const Value past = Value::FromTensor(Tensor::FromVector<int64_t>({2, 3}, {0, 1, 2, 3, 4, 5}));
  Status st = sessions.on_dnnl->Run({{"ids", past}}).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), AllOf(HasSubstr("Gather node 'embed'"), HasSubstr("index 5"),
                                  HasSubstr("out of range")));
}

// Identity between two dnnl kernels hands the blocked Conv output on as it is: the one host copy
// is the output Y (16 x 3 x 3 floats), not C (16 x 6 x 6) before Identity.
TEST(DnnlProviderTest, IdentityKeepsAResidentTensorResident) {
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 6, 6] X, float[16, 16, 3, 3] W) => (float[1, 16, 3, 3] Y) {
  C = Conv <pads = [1, 1, 1, 1]> (X, W)
  I = Identity(C)
  Y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (I)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  for (const NodePlacement& p : sessions.on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
  }
  const std::vector<NamedValue> feeds = {{"X", Seeded({1, 16, 6, 6}, 6)},
                                         {"W", Seeded({16, 16, 3, 3}, 7)}};
  TransferStats transfers;
  auto got = sessions.on_dnnl->Run(feeds, &transfers);
  auto want = sessions.on_ref->Run(feeds);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  ExpectNear((*got)[0].tensor(), (*want)[0].tensor());
  EXPECT_EQ(transfers.count, 1);
  EXPECT_EQ(transfers.bytes, 16 * 3 * 3 * 4);
}

// The written-out Gelu of the model zoo, x * 0.5 times 1 + Erf(x / sqrt 2), at opset 17 (before
// Gelu the op): $extra adds graph outputs.
constexpr char kWrittenOutGelu[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3, 8] X) => (float[2, 3, 8] Y$extra)
<float sqrt2 = {1.41421356}, float one = {1.0}, float half = {0.5}> {
  [div] S = Div(X, sqrt2)
  [erf] E = Erf(S)
  [plus] A = Add(E, one)
  [half] H = Mul(X, half)
  [mul] Y = Mul(H, A)
}
)";

std::string WrittenOutGelu(const std::string& extra) {
  std::string text = kWrittenOutGelu;
  text.replace(text.find("$extra"), 6, extra);
  return text;
}

TEST(DnnlProviderTest, AWrittenOutGeluRunsAsOneClaimThatKeepsNaN) {
  DnnlAndRefSessions sessions = SessionsOf(WrittenOutGelu(""));
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  for (const NodePlacement& p : sessions.on_dnnl->placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name;
    EXPECT_EQ(p.subgraph, "div..mul") << p.node_name;
  }
  std::vector<float> x(48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) / 6.0f - 4.0f;
  ExpectSameOutputs(sessions, {{"X", Value::FromTensor(Tensor::FromVector<float>({2, 3, 8}, x))}});
  constexpr float kInf = std::numeric_limits<float>::infinity();
  x[0] = std::numeric_limits<float>::quiet_NaN();
  x[1] = kInf;
  x[2] = -kInf;  // 0.5 * -inf * 0: NaN written out, and in oneDNN's gelu_erf
  x[3] = -30.0f;
  ExpectSameOutputs(sessions, {{"X", Value::FromTensor(Tensor::FromVector<float>({2, 3, 8}, x))}});
  auto y =
      sessions.on_dnnl->Run({{"X", Value::FromTensor(Tensor::FromVector<float>({2, 3, 8}, x))}});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(std::isnan((*y)[0].tensor().data<float>()[0]));
}

TEST(DnnlProviderTest, AGeluWhoseIntermediateIsAlsoAGraphOutputIsNotClaimed) {
  for (const char* extra : {", float[2, 3, 8] E", ", float[2, 3, 8] H"}) {
    SCOPED_TRACE(extra);
    DnnlAndRefSessions sessions = SessionsOf(WrittenOutGelu(extra));
    ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
    for (const NodePlacement& p : sessions.on_dnnl->placements()) {
      EXPECT_EQ(p.provider, "dnnl") << p.node_name;
      EXPECT_EQ(p.subgraph, "") << p.node_name;
    }
    ExpectSameOutputs(sessions, {{"X", Seeded({2, 3, 8}, 8)}});
  }
}

// The other orders of the products, the scaling as a product with 1 / sqrt 2, and the constants
// as Constant nodes; a pattern with another constant than sqrt 2 is left alone.
TEST(DnnlProviderTest, EveryWrittenOutFormOfGeluIsClaimed) {
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[4, 6] X) => (float[4, 6] Y, float[4, 6] Z, float[4, 6] W) {
  [r] R = Constant <value = float {0.70710678}> ()
  [o] O = Constant <value = float {1.0}> ()
  [h] Half = Constant <value = float[1, 1] {0.5}> ()
  [s1] S1 = Mul(R, X)
  [e1] E1 = Erf(S1)
  [a1] A1 = Add(O, E1)
  [m1] M1 = Mul(X, A1)
  [y] Y = Mul(Half, M1)
  [s2] S2 = Mul(Y, R)
  [e2] E2 = Erf(S2)
  [a2] A2 = Add(E2, O)
  [m2] M2 = Mul(A2, Half)
  [z] Z = Mul(M2, Y)
  [s3] S3 = Mul(Z, O)
  [e3] E3 = Erf(S3)
  [a3] A3 = Add(E3, O)
  [m3] M3 = Mul(A3, Half)
  [w] W = Mul(M3, Z)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  std::map<std::string, std::string> subgraph;
  for (const NodePlacement& p : sessions.on_dnnl->placements()) subgraph[p.node_name] = p.subgraph;
  for (const char* node : {"s1", "e1", "a1", "m1", "y"}) EXPECT_EQ(subgraph[node], "s1..y");
  for (const char* node : {"s2", "e2", "a2", "m2", "z"}) EXPECT_EQ(subgraph[node], "s2..z");
  for (const char* node : {"s3", "e3", "a3", "m3", "w"}) EXPECT_EQ(subgraph[node], "") << node;
  ExpectSameOutputs(sessions, {{"X", Seeded({4, 6}, 9)}});
}

// "float[d0, d1] name = {...}": an initializer of seeded values in [-1, 1).
std::string SeededInitializer(const std::string& name, const std::vector<int>& dims, int salt) {
  std::string text = "float[";
  int count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(dims[i]);
    count *= dims[i];
  }
  text += "] " + name + " = {";
  for (int i = 0; i < count; ++i) {
    const float value = static_cast<float>((i * 7 + salt) % 17 - 8) / 8.0f;
    text += (i > 0 ? ", " : "") + std::to_string(value);
  }
  return text + "}";
}

// The subgraph each node's placement names, in graph order; every node on dnnl.
std::vector<std::string> SubgraphsOnDnnl(const Session& session) {
  std::vector<std::string> subgraphs;
  for (const NodePlacement& p : session.placements()) {
    EXPECT_EQ(p.provider, "dnnl") << p.node_name << " (" << p.op_type << ")";
    subgraphs.push_back(p.subgraph);
  }
  return subgraphs;
}

// X with a NaN in row 0 and an infinity in row 2 (inf * 0 gives NaN there too).
Value WithNaNAndInfinity(const Value& x) {
  Tensor t = x.tensor().Clone();
  t.mutable_data<float>()[3] = std::numeric_limits<float>::quiet_NaN();
  t.mutable_data<float>()[2 * 8 + 5] = std::numeric_limits<float>::infinity();
  return Value::FromTensor(std::move(t));
}

// MatMul + bias with the bias second and first ([N] and [1, N]), then with a written-out Gelu, a
// Gelu-20 and its tanh form: five claims, each one matmul with its bias and post-op.
TEST(DnnlProviderTest, MatMulItsBiasAndItsGeluRunAsOneClaimThatKeepsNaN) {
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 9, opset_import: ["" : 20]>
g (float[1, 6, 8] X) => (float[1, 6, 4] Y, float[1, 6, 4] Z, float[1, 6, 4] G, float[1, 6, 4] E, float[1, 6, 4] T)
<)" + SeededInitializer("W", {8, 4}, 0) + ", " +
                                           SeededInitializer("b", {4}, 3) + ", " +
                                           SeededInitializer("b2", {1, 4}, 5) + R"(,
 float sqrt2 = {1.41421356}, float one = {1.0}, float half = {0.5}> {
  M0 = MatMul(X, W)
  Y = Add(M0, b)
  M2 = MatMul(X, W)
  Z = Add(b2, M2)
  M4 = MatMul(X, W)
  A5 = Add(M4, b)
  S6 = Div(A5, sqrt2)
  E7 = Erf(S6)
  P8 = Add(E7, one)
  H9 = Mul(A5, half)
  G = Mul(H9, P8)
  M11 = MatMul(X, W)
  A12 = Add(b, M11)
  E = Gelu(A12)
  M14 = MatMul(X, W)
  A15 = Add(M14, b2)
  T = Gelu <approximate = "tanh"> (A15)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  const std::string gelu = "MatMul#4..Mul#10";
  EXPECT_THAT(SubgraphsOnDnnl(*sessions.on_dnnl),
              ElementsAre("MatMul#0+Add#1", "MatMul#0+Add#1", "MatMul#2+Add#3", "MatMul#2+Add#3",
                          gelu, gelu, gelu, gelu, gelu, gelu, gelu, "MatMul#11..Gelu#13",
                          "MatMul#11..Gelu#13", "MatMul#11..Gelu#13", "MatMul#14..Gelu#16",
                          "MatMul#14..Gelu#16", "MatMul#14..Gelu#16"));
  const Value x = Seeded({1, 6, 8}, 3);
  for (uint32_t run = 0; run < 2; ++run) ExpectSameOutputs(sessions, {{"X", x}});  // then cached
  const Value special = WithNaNAndInfinity(x);
  ExpectSameOutputs(sessions, {{"X", special}});
  auto got = sessions.on_dnnl->Run({{"X", special}});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  for (size_t o = 0; o < got->size(); ++o) {
    const float* y = (*got)[o].tensor().data<float>();
    for (int col = 0; col < 4; ++col) EXPECT_TRUE(std::isnan(y[col])) << "output " << o;
  }
}

// Left to run node by node: a MatMul output also read as a graph output; a bias that is not
// constant, that runs along the rows ([M, 1]) or over all of Y ([M, N]), or that would widen Y
// ([1, 1, N] on a 2-D Y); a 1-D A. A Gelu whose input is also a graph output is not the matmul's
// post-op: MatMul + Add and the written-out Gelu are claimed apart.
TEST(DnnlProviderTest, MatMulBiasesThatDoNotQualifyAreNotClaimed) {
  DnnlAndRefSessions sessions = SessionsOf(
      R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 6, 8] X, float[6, 8] X2, float[8] x1, float[4] c) => (float[1, 6, 4] Y, float[1, 6, 4] M0, float[1, 6, 4] V, float[6, 4] R, float[6, 4] F, float[1, 6, 4] H, float[4] O, float[1, 6, 4] A, float[1, 6, 4] G)
<)" + SeededInitializer("W", {8, 4}, 0) +
      ", " + SeededInitializer("b", {4}, 3) + ", " + SeededInitializer("rows", {6, 1}, 4) + ", " +
      SeededInitializer("full", {6, 4}, 6) + ", " + SeededInitializer("b3", {1, 1, 4}, 8) + R"(,
 float sqrt2 = {1.41421356}, float one = {1.0}, float half = {0.5}> {
  M0 = MatMul(X, W)
  Y = Add(M0, b)
  M2 = MatMul(X, W)
  V = Add(M2, c)
  M4 = MatMul(X2, W)
  R = Add(M4, rows)
  M6 = MatMul(X2, W)
  F = Add(full, M6)
  M8 = MatMul(X2, W)
  H = Add(M8, b3)
  M10 = MatMul(x1, W)
  O = Add(M10, b)
  M12 = MatMul(X, W)
  A = Add(M12, b)
  S = Div(A, sqrt2)
  E = Erf(S)
  P = Add(E, one)
  Q = Mul(A, half)
  G = Mul(Q, P)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  const std::string gelu = "Div#14..Mul#18";
  EXPECT_THAT(SubgraphsOnDnnl(*sessions.on_dnnl),
              ElementsAre("", "", "", "", "", "", "", "", "", "", "", "", "MatMul#12+Add#13",
                          "MatMul#12+Add#13", gelu, gelu, gelu, gelu, gelu));
  const std::vector<NamedValue> feeds = {{"X", Seeded({1, 6, 8}, 1)},
                                         {"X2", Seeded({6, 8}, 2)},
                                         {"x1", Seeded({8}, 3)},
                                         {"c", Seeded({4}, 4)}};
  ExpectSameOutputs(sessions, feeds);
}

// Attention's products: Q x K^T through the Transposes that split the heads, scaled, and the
// probabilities x V with the heads merged back by a Transpose, each one strided matmul; a
// Transpose with the default perm (reversed axes) before a 2-D MatMul scaled by a constant
// written first; a Transpose feeding a MatMul that broadcasts its batch. Left alone: a Transpose
// whose output is also a graph output, and a Mul by a vector (it scales columns, not Y).
TEST(DnnlProviderTest, AMatMulTakesTheTransposesAroundItAndItsScale) {
  DnnlAndRefSessions sessions = SessionsOf(R"(
<ir_version: 9, opset_import: ["" : 20]>
g (float[2, 6, 8] Q, float[2, 6, 8] K, float[2, 6, 8] V, float[3, 8] X, float[1, 4, 6] B,
   float[3, 4, 5] G, float[4, 6] F, float[4, 2] H)
  => (float[2, 6, 8] Y, float[3, 5] Zs, float[3, 6, 5] Wb, float[6, 4] E, float[6, 2] Nv)
<int64[4] split = {2, 6, 2, 4}, int64[3] merge = {2, 6, 8}, float scale = {0.5},
 float[1] half = {0.5}, float[2] vec = {2.0, 3.0}, )" +
                                           SeededInitializer("W", {5, 8}, 1) + R"(> {
  Qr = Reshape(Q, split)
  Qt = Transpose <perm = [0, 2, 1, 3]> (Qr)
  Kr = Reshape(K, split)
  Kt = Transpose <perm = [0, 2, 3, 1]> (Kr)
  Vr = Reshape(V, split)
  Vt = Transpose <perm = [0, 2, 1, 3]> (Vr)
  P = MatMul(Qt, Kt)
  Ps = Mul(P, scale)
  A = Softmax <axis = -1> (Ps)
  C = MatMul(A, Vt)
  Ct = Transpose <perm = [0, 2, 1, 3]> (C)
  Y = Reshape(Ct, merge)
  Wt = Transpose(W)
  Z = MatMul(X, Wt)
  Zs = Mul(half, Z)
  Bt = Transpose <perm = [0, 2, 1]> (B)
  Wb = MatMul(Bt, G)
  E = Transpose <perm = [1, 0]> (F)
  N = MatMul(E, H)
  Nv = Mul(N, vec)
}
)");
  ASSERT_TRUE(sessions.on_dnnl && sessions.on_ref);
  const std::string qk = "Transpose#1..Mul#7", pv = "Transpose#5..Transpose#10",
                    z = "Transpose#12..Mul#14", wb = "Transpose#15+MatMul#16";
  EXPECT_THAT(
      SubgraphsOnDnnl(*sessions.on_dnnl),
      ElementsAre("", qk, "", qk, "", pv, qk, qk, "", pv, pv, "", z, z, z, wb, wb, "", "", ""));
  const std::vector<NamedValue> feeds = {{"Q", Seeded({2, 6, 8}, 1)}, {"K", Seeded({2, 6, 8}, 2)},
                                         {"V", Seeded({2, 6, 8}, 3)}, {"X", Seeded({3, 8}, 4)},
                                         {"B", Seeded({1, 4, 6}, 5)}, {"G", Seeded({3, 4, 5}, 6)},
                                         {"F", Seeded({4, 6}, 7)},    {"H", Seeded({4, 2}, 8)}};
  for (int run = 0; run < 2; ++run) ExpectSameOutputs(sessions, feeds);  // then cached
}

TEST(DnnlProviderTest, ForbiddenFallbackNamesTheNodeAndTheReason) {
  ScratchDir dir;
  const std::string path = dir.WriteModel("conv_relu_neg.onnx", kConvReluNeg);
  auto runtime = CreateBuiltinRuntime();
  Status st = runtime->Load(path, On({"dnnl"}, FallbackPolicy::kForbid)).status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), AllOf(HasSubstr("Neg"), HasSubstr("fallback is forbidden"),
                                  HasSubstr("dnnl"), HasSubstr("it would run on 'ref'")));
}

TEST(DnnlProviderTest, OneModelRunsFromManyThreadsAtOnce) {
  ScratchDir dir;
  const std::string path = dir.WriteModel("conv_relu_neg.onnx", kConvReluNeg);
  auto runtime = CreateBuiltinRuntime();
  auto model = runtime->Load(path, On({"dnnl"}));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto ref = runtime->Load(path, On({"ref"}));
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  std::vector<Tensor> want;
  for (uint32_t seed = 0; seed < 4; ++seed) {
    auto out = (*ref)->Run({{"X", Input(seed)}});
    ASSERT_TRUE(out.ok());
    want.push_back((*out)[0].tensor());
  }
  std::vector<std::vector<Tensor>> got(4);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        auto out = (*model)->Run({{"X", Input(t)}});
        if (out.ok()) got[t].push_back((*out)[0].tensor());
      }
    });
  }
  for (auto& th : threads) th.join();
  for (uint32_t t = 0; t < 4; ++t) {
    ASSERT_EQ(got[t].size(), 25u);
    for (const Tensor& y : got[t]) ExpectNear(y, want[t]);
  }
}

// --threads reaches the kernels: a session of 2 intra-op threads runs on a dnnl provider set up
// for 2 (the same provider for every such session) and computes what one thread computes; more
// threads than the processors OpenMP may use are refused rather than measured as fewer.
TEST(DnnlProviderTest, IntraOpThreadsReachTheKernels) {
  auto provider = DnnlOnRef();
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  const int most = (*provider)->max_intra_op_threads();
  ASSERT_GE(most, 1);
  auto same = (*provider)->ForIntraOpThreads(1);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, nullptr);  // one thread: the provider itself
  auto refused = (*provider)->ForIntraOpThreads(most + 1);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);

  auto runtime = CreateBuiltinRuntime();
  ScratchDir dir;
  const std::string path = dir.WriteModel("conv_relu_neg.onnx", kConvReluNeg);
  LoadOptions over = On({"dnnl"});
  over.intra_op_threads = most + 1;
  Status st = runtime->Load(path, over).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("provider 'dnnl' cannot use " + std::to_string(most + 1) +
                                      " intra-op threads"));
  if (most < 2) GTEST_SKIP() << "one processor: no second thread to give dnnl";

  auto two = (*provider)->ForIntraOpThreads(2);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  ASSERT_NE(*two, nullptr);
  EXPECT_EQ((*two)->name(), "dnnl");
  auto again = (*provider)->ForIntraOpThreads(2);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *two);

  LoadOptions options = On({"dnnl"});
  options.intra_op_threads = 2;
  auto on_two = runtime->Load(path, options);
  ASSERT_TRUE(on_two.ok()) << on_two.status().ToString();
  auto on_one = runtime->Load(path, On({"dnnl"}));
  ASSERT_TRUE(on_one.ok()) << on_one.status().ToString();
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    auto got = (*on_two)->Run({{"X", Input(seed)}});
    auto want = (*on_one)->Run({{"X", Input(seed)}});
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    ExpectNear((*got)[0].tensor(), (*want)[0].tensor());
  }
}

}  // namespace
}  // namespace onnxgate
