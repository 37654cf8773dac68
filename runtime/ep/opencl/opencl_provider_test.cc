// The opencl provider in a built-in runtime: its claims, a model whose float32 nodes run on the
// device and whose other nodes fall back to ref (placement recorded), nodes with element types
// unknown at load declined, one loaded model run from many threads at once, the thread count it
// claims, tensors left on the device between its kernels with one host copy where a value
// leaves the provider, and no device meaning Unavailable "no OpenCL device". Tests that need a
// device skip where there is none.
#include "runtime/ep/opencl/opencl_provider.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <stdlib.h>

#include <cstdio>
#include <thread>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/model/model_test_util.h"
#include "runtime/session/session.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// Y = Softmax(MatMul(Relu(X), W) + B) then Cast to double and back: opencl takes Relu, MatMul,
// Add and Softmax (float32), not Cast.
constexpr char kMlp[] = R"(
<
  ir_version: 8,
  opset_import: ["" : 17]
>
g (float[2, 4] X) => (float[2, 3] Y)
<float[4, 3] W = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, -0.1, 0.2, -0.3},
 float[3] B = {0.5, -1.0, 0.25}> {
  R = Relu(X)
  M = MatMul(R, W)
  A = Add(M, B)
  S = Softmax(A)
  D = Cast <to = 11> (S)
  Y = Cast <to = 1> (D)
}
)";

LoadOptions On(std::vector<std::string> providers) {
  LoadOptions options;
  options.providers = std::move(providers);
  return options;
}

// A runtime offering ref and opencl, or nullptr (with the reason) where there is no device.
std::unique_ptr<RuntimeUnderTest> RuntimeWithOpenCl(std::string* why_not) {
  auto provider = CreateOpenClProvider();
  if (!provider.ok()) {
    *why_not = provider.status().ToString();
    return nullptr;
  }
  return CreateBuiltinRuntime(
      {{"ref", BuiltinRefProvider}, {kOpenClProviderName, [p = *provider]() {
                                       return StatusOr<std::shared_ptr<const ExecutionProvider>>(p);
                                     }}});
}

Value Input(uint32_t seed) {
  std::vector<float> v(8);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>((i * 7 + seed * 13) % 11) / 4.0f - 1.25f;
  }
  return Value::FromTensor(Tensor::FromVector<float>(Shape{2, 4}, v));
}

void ExpectNear(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.shape(), want.shape());
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    EXPECT_NEAR(got.data<float>()[i], want.data<float>()[i], 1e-6f) << "element " << i;
  }
}

TEST(OpenClProviderTest, ClaimsFloat32OpsAndOneIntraOpThread) {
  std::string why;
  auto runtime = RuntimeWithOpenCl(&why);
  if (runtime == nullptr) GTEST_SKIP() << why;
  auto claims = runtime->Claims("opencl");
  ASSERT_TRUE(claims.ok()) << claims.status().ToString();
  bool relu = false;
  for (const OpClaim& claim : *claims) {
    ASSERT_EQ(claim.type_constraints.size(), 1u);
    EXPECT_THAT(claim.type_constraints[0].types, ::testing::ElementsAre(DataType::kFloat));
    if (claim.op_type == "Relu") {
      relu = true;
      EXPECT_EQ(claim.since_version, 6);
      EXPECT_EQ(claim.until_version, 14);
    }
  }
  EXPECT_TRUE(relu);
  auto threads = runtime->MaxIntraOpThreads("opencl");
  ASSERT_TRUE(threads.ok());
  EXPECT_EQ(*threads, 1);
}

TEST(OpenClProviderTest, RunsItsNodesOnTheDeviceAndTheRestOnRef) {
  std::string why;
  auto runtime = RuntimeWithOpenCl(&why);
  if (runtime == nullptr) GTEST_SKIP() << why;
  ScratchDir dir;
  const std::string path = dir.WriteModel("mlp.onnx", kMlp);
  auto on_opencl = runtime->Load(path, On({"opencl"}));
  ASSERT_TRUE(on_opencl.ok()) << on_opencl.status().ToString();
  const std::vector<NodePlacement> placements = (*on_opencl)->placements();
  ASSERT_EQ(placements.size(), 6u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(placements[i].provider, "opencl") << placements[i].op_type;
  }
  EXPECT_EQ(placements[4].op_type, "Cast");
  EXPECT_EQ(placements[4].provider, "ref");
  ASSERT_EQ(placements[4].declines.size(), 1u);
  EXPECT_EQ(placements[4].declines[0].provider, "opencl");
  EXPECT_THAT(placements[4].declines[0].reason, HasSubstr("Cast"));

  auto on_ref = runtime->Load(path, On({"ref"}));
  ASSERT_TRUE(on_ref.ok()) << on_ref.status().ToString();
  for (uint32_t seed = 0; seed < 3; ++seed) {
    auto got = (*on_opencl)->Run({{"X", Input(seed)}});
    auto want = (*on_ref)->Run({{"X", Input(seed)}});
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    ExpectNear((*got)[0].tensor(), (*want)[0].tensor());
  }
}

TEST(OpenClProviderTest, OneModelRunsFromManyThreadsAtOnce) {
  std::string why;
  auto runtime = RuntimeWithOpenCl(&why);
  if (runtime == nullptr) GTEST_SKIP() << why;
  ScratchDir dir;
  const std::string path = dir.WriteModel("mlp.onnx", kMlp);
  auto model = runtime->Load(path, On({"opencl"}));
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
      for (int i = 0; i < 10; ++i) {
        auto out = (*model)->Run({{"X", Input(t)}});
        if (out.ok()) got[t].push_back((*out)[0].tensor());
      }
    });
  }
  for (auto& th : threads) th.join();
  for (uint32_t t = 0; t < 4; ++t) {
    ASSERT_EQ(got[t].size(), 10u);
    for (const Tensor& y : got[t]) ExpectNear(y, want[t]);
  }
}

// Every kind of opencl kernel in one chain (activations, binary ops, MatMul and Gemm, a
// reduction, Softmax, Transpose, Reshape, Concat), with Sin, which opencl does not claim, on ref.
// A and Y leave opencl: A as a graph output, Y for Sin and as a graph output.
constexpr char kChain[] = R"(
<
  ir_version: 8,
  opset_import: ["" : 17]
>
g (float[2, 4] X, float[4, 3] W) => (float[4, 3] Y, float[4, 3] N, float[2, 3] A)
<float[3] B = {0.5, -1.0, 0.25}, int64[2] S = {2, 3}, int64[1] axes = {0},
 float[3, 3] V = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9}> {
  R = Relu(X)
  M = MatMul(R, W)
  A = Add(M, B)
  T = Transpose(A)
  P = Reshape(T, S)
  C = Concat <axis = 0> (P, A)
  E = Exp(C)
  D = ReduceSum(E, axes)
  Q = Div(E, D)
  F = Softmax(Q)
  G = Gemm <transB = 1> (F, V, B)
  Y = Sigmoid(G)
  N = Sin(Y)
}
)";

TEST(OpenClProviderTest, TensorsStayOnTheDeviceUntilAValueLeavesTheProvider) {
  auto opencl = CreateOpenClProvider();
  if (!opencl.ok()) GTEST_SKIP() << opencl.status().ToString();
  auto ref = BuiltinRefProvider();
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  auto proto = Model::ParseText(kChain, "chain.onnx");
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  auto model = Model::FromProto(*proto, ".", "chain.onnx");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto on_opencl = Session::Create(*model, {*opencl, *ref});
  auto on_ref = Session::Create(*model, {*ref});
  ASSERT_TRUE(on_opencl.ok()) << on_opencl.status().ToString();
  ASSERT_TRUE(on_ref.ok()) << on_ref.status().ToString();
  for (const NodePlacement& p : (*on_opencl)->placements()) {
    EXPECT_EQ(p.provider, p.op_type == "Sin" ? "ref" : "opencl") << p.op_type;
  }
  std::vector<float> w(12);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 5) / 4.0f - 0.5f;
  const std::vector<NamedValue> feeds = {
      {"X", Input(1)}, {"W", Value::FromTensor(Tensor::FromVector<float>(Shape{4, 3}, w))}};
  for (int run = 0; run < 2; ++run) {  // the second run finds nothing left over from the first
    TransferStats transfers;
    auto got = (*on_opencl)->Run(feeds, &transfers);
    auto want = (*on_ref)->Run(feeds);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    ASSERT_EQ(got->size(), 3u);
    for (size_t o = 0; o < 3; ++o) {
      ASSERT_TRUE((*got)[o].is_tensor()) << "output " << o;
      ExpectNear((*got)[o].tensor(), (*want)[o].tensor());
    }
    // One copy each for Y (4 x 3 floats, read by Sin and returned) and A (2 x 3 floats); the
    // feeds X and W and the initializers go in with the launches, which is no transfer.
    EXPECT_EQ(transfers.count, 2);
    EXPECT_EQ(transfers.bytes, (4 * 3 + 2 * 3) * 4);
  }
}

// A node whose element type shape inference could not settle (a subgraph's input, say) might
// carry int64 at run time: the provider declines it at load rather than fail it at run time.
TEST(OpenClProviderTest, DeclinesANodeWhoseTypesAreUnknownAtLoad) {
  auto provider = CreateOpenClProvider();
  if (!provider.ok()) GTEST_SKIP() << provider.status().ToString();
  onnx::NodeProto node;
  node.set_op_type("Reshape");
  node.add_input("data");
  node.add_input("shape");
  node.add_output("reshaped");
  NodeRequest request;
  request.node = &node;
  request.since_version = 25;
  request.input_types = {DataType::kUndefined, DataType::kInt64};
  request.output_types = {DataType::kUndefined};
  auto unknown = (*provider)->Claim(request);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(unknown.status().message(), HasSubstr("element type of T of Reshape is not known"));
  request.bound_types = {{"T", DataType::kFloat}};
  EXPECT_TRUE((*provider)->Claim(request).ok());
  request.bound_types = {{"T", DataType::kInt64}};
  EXPECT_FALSE((*provider)->Claim(request).ok());
}

// In a fresh process (a "threadsafe" death test re-executes the binary) whose ICD loader finds
// no platform: the provider cannot be created, Unavailable "no OpenCL device".
void NoDeviceNoProvider() {
  setenv("OCL_ICD_VENDORS", "/nonexistent/onnxgate-no-icd", 1);
  auto provider = CreateOpenClProvider();
  if (provider.ok()) std::_Exit(1);
  std::fprintf(stderr, "%s\n", provider.status().ToString().c_str());
  std::_Exit(provider.status().code() == StatusCode::kUnavailable ? 0 : 1);
}

TEST(OpenClProviderTest, NoDeviceMeansUnavailable) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(NoDeviceNoProvider(), ::testing::ExitedWithCode(0), "UNAVAILABLE: no OpenCL device");
}

}  // namespace
}  // namespace onnxgate
