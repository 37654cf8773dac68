// Tests for Session: results, placements and declines under each fallback policy, constants,
// subgraphs with outer-scope names, feed checks, run-time errors and concurrent runs.
#include "runtime/session/session.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <thread>

#include "runtime/model/model_test_util.h"
#include "runtime/session/session_test_kernels.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_kernels::ClaimingProvider;
using testing_kernels::ProbeProvider;
using testing_kernels::RefusingProvider;
using testing_kernels::ResidentProvider;
using testing_kernels::SilentProvider;
using testing_kernels::TestProvider;

using Providers = std::vector<std::shared_ptr<const ExecutionProvider>>;

std::shared_ptr<const Model> TextModel(const std::string& graph, int opset = 14) {
  std::string text =
      "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + graph;
  auto proto = Model::ParseText(text, "test.onnx");
  EXPECT_TRUE(proto.ok()) << proto.status().ToString();
  auto model = Model::FromProto(*proto, ".", "test.onnx");
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? *model : nullptr;
}

std::shared_ptr<const Model> AddModel() {
  auto model = Model::Load(TestdataPath("add.onnxtxt"));
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return *model;
}

Value Floats(Shape shape, std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>(std::move(shape), v));
}

std::unique_ptr<const Session> MustCreate(std::shared_ptr<const Model> model, Providers providers,
                                          SessionOptions options = {}) {
  auto s = Session::Create(std::move(model), std::move(providers), options);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

TEST(SessionTest, RunsTheAddModel) {
  auto session = MustCreate(AddModel(), {TestProvider("p", {"Add", "Relu"})});
  ASSERT_NE(session, nullptr);
  EXPECT_THAT(session->input_names(), ElementsAre("A"));
  EXPECT_THAT(session->output_names(), ElementsAre("C"));
  auto out = session->Run({{"A", Floats({2, 3}, {-5, 0, 1, -1, -2, -4})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2,3] {0, 2, 4, 0, 0, 0}");
  ASSERT_EQ(session->placements().size(), 2u);
  EXPECT_EQ(session->placements()[0].node_name, "Add#0");
  EXPECT_EQ(session->placements()[0].provider, "p");
  EXPECT_EQ(session->placements()[0].since_version, 14);
  EXPECT_EQ(session->placements()[1].node_name, "Relu#1");
  EXPECT_TRUE(session->placements()[1].declines.empty());
}

TEST(SessionTest, KernelsSeeConstantInputs) {
  testing_kernels::ClearSeenConstants();
  auto session = MustCreate(AddModel(), {TestProvider("p", {"Add", "Relu"})});
  EXPECT_THAT(testing_kernels::SeenConstants(), ElementsAre("Add:1=FLOAT[3] {1, 2, 3}"));

  testing_kernels::ClearSeenConstants();
  auto model = TextModel(R"(
g (float[2] X) => (float[2] Y) {
  K = Constant <value_floats = [1.0, 2.0]> ()
  Y = Add(X, K)
}
)");
  auto with_constant = MustCreate(model, {TestProvider("p", {"Add", "Constant"})});
  ASSERT_NE(with_constant, nullptr);
  EXPECT_THAT(testing_kernels::SeenConstants(), ElementsAre("Add:1=FLOAT[2] {1, 2}"));
  auto out = with_constant->Run({{"X", Floats({2}, {1, 1})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2] {2, 3}");
}

TEST(SessionTest, FallbackRecordsDeclinesUnderEachPolicy) {
  Providers providers = {TestProvider("fast", {"Relu"}), TestProvider("slow", {"Add", "Relu"})};
  for (FallbackPolicy policy : {FallbackPolicy::kAllow, FallbackPolicy::kWarn}) {
    SessionOptions options;
    options.fallback = policy;
    auto session = MustCreate(AddModel(), providers, options);
    ASSERT_NE(session, nullptr);
    const auto& p = session->placements();
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[0].provider, "slow");
    ASSERT_EQ(p[0].declines.size(), 1u);
    EXPECT_EQ(p[0].declines[0].provider, "fast");
    EXPECT_THAT(p[0].declines[0].reason, HasSubstr("no kernel for Add-14"));
    EXPECT_EQ(p[1].provider, "fast");
    EXPECT_TRUE(session->Run({{"A", Floats({2, 3}, {0, 0, 0, 0, 0, 0})}}).ok());
  }
  SessionOptions forbid;
  forbid.fallback = FallbackPolicy::kForbid;
  auto st = Session::Create(AddModel(), providers, forbid).status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("Add node 'Add#0': fallback is forbidden"));
  EXPECT_THAT(st.message(), HasSubstr("'fast': no kernel for Add-14"));
  EXPECT_THAT(st.message(), HasSubstr("it would run on 'slow'"));
}

TEST(SessionTest, NodeNoProviderTakesIsUnimplemented) {
  auto st = Session::Create(AddModel(), {TestProvider("fast", {"Relu"})}).status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("add.onnxtxt: Add node 'Add#0' (ai.onnx.Add-14, T=float): "
                                      "no provider can run it: 'fast': no kernel for Add-14"));
}

TEST(SessionTest, TypeMismatchDeclines) {
  auto p = RegistryProvider::Create("doubles", [](KernelRegistry& r) {
    ONNXGATE_RETURN_IF_ERROR(testing_kernels::RegisterTestKernel(r, "Relu", {DataType::kDouble}));
    return testing_kernels::RegisterTestKernel(r, "Add");
  });
  ASSERT_TRUE(p.ok());
  auto st = Session::Create(AddModel(), {*p}).status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("T=float is not among double"));
}

TEST(SessionTest, FactoryUnimplementedFallsThroughOtherErrorsFail) {
  auto model = AddModel();
  auto picky = RefusingProvider("picky", "Add", Unimplemented("picky Add does not broadcast"));
  auto session = MustCreate(model, {picky, TestProvider("p", {"Add", "Relu"})});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(session->placements()[0].declines.size(), 1u);
  EXPECT_EQ(session->placements()[0].declines[0].reason, "picky Add does not broadcast");

  auto broken = RefusingProvider("broken", "Add", InvalidArgument("attribute 'x' is bad"));
  auto st = Session::Create(model, {broken, TestProvider("p", {"Add", "Relu"})}).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      st.message(),
      HasSubstr("Add node 'Add#0' (version 14) on provider 'broken': attribute 'x' is bad"));
}

TEST(SessionTest, OptionsAndProvidersAreChecked) {
  // Levels 1 and 2 rewrite the model before the session (runtime/optimizer); the session takes
  // them and refuses levels that do not exist.
  auto p = TestProvider("p", {"Add", "Relu"});
  for (int level : {0, 1, 2}) {
    SessionOptions options;
    options.optimization_level = level;
    auto session = Session::Create(AddModel(), {p}, options);
    EXPECT_TRUE(session.ok()) << level << ": " << session.status().ToString();
  }
  for (int level : {-1, 3, 7}) {
    SessionOptions options;
    options.optimization_level = level;
    EXPECT_EQ(Session::Create(AddModel(), {p}, options).status().code(),
              StatusCode::kInvalidArgument)
        << level;
  }
  EXPECT_EQ(Session::Create(AddModel(), {}).status().code(), StatusCode::kInvalidArgument);
}

TEST(SessionTest, FeedsAreChecked) {
  auto session = MustCreate(AddModel(), {TestProvider("p", {"Add", "Relu"})});
  ASSERT_NE(session, nullptr);
  auto missing = session->Run({});
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(missing.status().message(), HasSubstr("missing input 'A' (tensor(float)[2,3])"));

  auto unknown = session->Run({{"A", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"Z", Floats({1}, {1})}});
  EXPECT_THAT(unknown.status().message(),
              HasSubstr("unknown input 'Z'; the model's inputs are 'A'"));

  auto twice = session->Run(
      {{"A", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"A", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_THAT(twice.status().message(), HasSubstr("input 'A' is fed more than once"));

  auto wrong_type = session->Run(
      {{"A", Value::FromTensor(Tensor::FromVector<int64_t>(Shape({2, 3}), {1, 2, 3, 4, 5, 6}))}});
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(wrong_type.status().message(),
              HasSubstr("input 'A': expected tensor(float)[2,3], got tensor(int64)[2,3]"));

  auto wrong_shape = session->Run({{"A", Floats({3, 2}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_THAT(wrong_shape.status().message(), HasSubstr("got tensor(float)[3,2]"));

  auto sequence = session->Run({{"A", Value::FromSequence(DataType::kFloat, {})}});
  EXPECT_THAT(sequence.status().message(), HasSubstr("got seq(tensor(float))"));
}

TEST(SessionTest, EmptySequencesAndOptionalsTakeTheDeclaredType) {
  // ONNX 1.12's text format cannot declare sequence inputs; the types are set on the proto.
  auto proto = Model::ParseText(R"(<ir_version: 8, opset_import: ["" : 16]>
g (float[2] S, float[2] O) => (float[2] T, float[2] P) {
  T = Identity(S)
  P = Identity(O)
}
)",
                                "test.onnx");
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  onnx::TypeProto float_tensor;
  float_tensor.mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  onnx::GraphProto* g = proto->mutable_graph();
  for (onnx::ValueInfoProto* vi : {g->mutable_input(0), g->mutable_output(0)}) {
    *vi->mutable_type()->mutable_sequence_type()->mutable_elem_type() = float_tensor;
  }
  for (onnx::ValueInfoProto* vi : {g->mutable_input(1), g->mutable_output(1)}) {
    *vi->mutable_type()->mutable_optional_type()->mutable_elem_type() = float_tensor;
  }
  auto model = Model::FromProto(*proto, ".", "test.onnx");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto session = MustCreate(*model, {TestProvider("p", {"Identity"})});
  ASSERT_NE(session, nullptr);
  auto out = session->Run({{"S", Value::FromSequence(DataType::kUndefined, {})},
                           {"O", Value::OptionalNone(Value::Kind::kNone, DataType::kUndefined)}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].TypeString(), "seq(tensor(float))[0 items]");
  EXPECT_EQ((*out)[1].TypeString(), "optional(tensor(float)): none");
  auto wrong = session->Run({{"S", Value::FromSequence(DataType::kInt64, {})},
                             {"O", Value::OptionalNone(Value::Kind::kTensor, DataType::kFloat)}});
  EXPECT_THAT(wrong.status().message(), HasSubstr("input 'S': expected seq(tensor(float))"));
}

TEST(SessionTest, SymbolicDimsAcceptAnySize) {
  auto model = Model::Load(TestdataPath("relu.onnxtxt"));
  ASSERT_TRUE(model.ok());
  auto session = MustCreate(*model, {TestProvider("p", {"Relu"})});
  ASSERT_NE(session, nullptr);
  EXPECT_TRUE(session->Run({{"X", Floats({1, 4}, {1, 2, 3, 4})}}).ok());
  auto three = session->Run({{"X", Floats({3, 4}, std::vector<float>(12, -1.f))}});
  ASSERT_TRUE(three.ok());
  EXPECT_EQ((*three)[0].tensor().shape(), Shape({3, 4}));
  EXPECT_FALSE(session->Run({{"X", Floats({3, 5}, std::vector<float>(15, 1.f))}}).ok());
}

TEST(SessionTest, KernelErrorsNameTheNode) {
  auto session = MustCreate(TextModel("g (float[2] X) => (float[2] Y) {\n Y = Sqrt(X)\n}\n"),
                            {TestProvider("p", {"Sqrt"})});
  ASSERT_NE(session, nullptr);
  auto st = session->Run({{"X", Floats({2}, {4, -1})}}).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      st.message(),
      HasSubstr("running test.onnx: Sqrt node 'Sqrt#0' (version 13): Sqrt of negative value -1"));
  // Named once, by the session.
  EXPECT_EQ(st.message().find("Sqrt node"), st.message().rfind("Sqrt node"));
  auto ok = session->Run({{"X", Floats({2}, {4, 9})}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)[0].tensor().DebugString(), "FLOAT[2] {2, 3}");
}

TEST(SessionTest, MissingRequiredOutputIsInternal) {
  auto session =
      MustCreate(TextModel("g (float[2] X) => (float[2] Z) {\n Y = Neg(X)\n Z = Relu(Y)\n}\n"),
                 {SilentProvider("silent", "Neg"), TestProvider("p", {"Relu"})});
  ASSERT_NE(session, nullptr);
  auto st = session->Run({{"X", Floats({2}, {1, 2})}}).status();
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_THAT(st.message(),
              HasSubstr("Neg node 'Neg#0' (version 13): the kernel did not produce output 'Y'"));
}

constexpr char kIfModel[] = R"(
g (bool C, float[2] X) => (float[2] Y) {
  K = Neg(X)
  Y = If <then_branch = t () => (float[2] A) { A = Add(K, X) },
          else_branch = e () => (float[2] B) {
            B = If <then_branch = t2 () => (float[2] D) { D = Relu(K) },
                    else_branch = e2 () => (float[2] E) { E = Identity(X) }> (C)
          }> (C)
}
)";

TEST(SessionTest, SubgraphsReadOuterScopes) {
  auto session = MustCreate(TextModel(kIfModel, 16),
                            {TestProvider("p", {"Neg", "Add", "Relu", "Identity", "If"})});
  ASSERT_NE(session, nullptr);
  auto yes = session->Run(
      {{"C", Value::FromTensor(Tensor::Scalar<bool>(true))}, {"X", Floats({2}, {1, -2})}});
  ASSERT_TRUE(yes.ok()) << yes.status().ToString();
  EXPECT_EQ((*yes)[0].tensor().DebugString(), "FLOAT[2] {0, 0}");
  auto no = session->Run(
      {{"C", Value::FromTensor(Tensor::Scalar<bool>(false))}, {"X", Floats({2}, {1, -2})}});
  ASSERT_TRUE(no.ok()) << no.status().ToString();
  EXPECT_EQ((*no)[0].tensor().DebugString(), "FLOAT[2] {1, -2}");

  std::vector<std::string> names;
  for (const auto& p : session->placements()) names.push_back(p.node_name);
  EXPECT_THAT(names, ElementsAre("Neg#0", "If#1", "If#1/then_branch/Add#0", "If#1/else_branch/If#0",
                                 "If#1/else_branch/If#0/then_branch/Relu#0",
                                 "If#1/else_branch/If#0/else_branch/Identity#0"));
}

TEST(SessionTest, SubgraphNodesFollowTheFallbackPolicy) {
  SessionOptions forbid;
  forbid.fallback = FallbackPolicy::kForbid;
  auto st = Session::Create(
                TextModel(kIfModel, 16),
                {TestProvider("a", {"Neg", "Add", "Identity", "If"}), TestProvider("b", {"Relu"})},
                forbid)
                .status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("Relu node 'If#1/else_branch/If#0/then_branch/Relu#0'"));
}

TEST(SessionTest, InitializerDefaultsCanBeOverridden) {
  auto session = MustCreate(TextModel(R"(
g (float[2] X, float[2] B = {10.0, 20.0}) => (float[2] Y) {
  Y = Add(X, B)
}
)"),
                            {TestProvider("p", {"Add"})});
  ASSERT_NE(session, nullptr);
  EXPECT_THAT(session->input_names(), ElementsAre("X"));
  auto defaults = session->Run({{"X", Floats({2}, {1, 2})}});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ((*defaults)[0].tensor().DebugString(), "FLOAT[2] {11, 22}");
  auto overridden = session->Run({{"X", Floats({2}, {1, 2})}, {"B", Floats({2}, {0, 0})}});
  ASSERT_TRUE(overridden.ok());
  EXPECT_EQ((*overridden)[0].tensor().DebugString(), "FLOAT[2] {1, 2}");
}

TEST(SessionTest, OutputsMayBeInputsOrInitializers) {
  auto session = MustCreate(TextModel(R"(
g (float[2] X) => (float[2] X, float[2] Y, float[1] W) <float[1] W = {7.0}> {
  Y = Neg(X)
}
)"),
                            {TestProvider("p", {"Neg"})});
  ASSERT_NE(session, nullptr);
  auto out = session->Run({{"X", Floats({2}, {1, 2})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2] {1, 2}");
  EXPECT_EQ((*out)[1].tensor().DebugString(), "FLOAT[2] {-1, -2}");
  EXPECT_EQ((*out)[2].tensor().DebugString(), "FLOAT[1] {7}");
}

TEST(SessionTest, ValuesAreFreedAfterTheirLastUse) {
  // Y's last reader is Relu#1, so Y is gone when Identity#2 runs; X (an input) and Z (a graph
  // output) stay.
  std::vector<std::string> log;
  auto after = MustCreate(TextModel(R"(
g (float[2] X) => (float[2] Z, float[2] W) {
  Y = Neg(X)
  Z = Relu(Y)
  W = Identity(X)
}
)"),
                          {ProbeProvider("probe", "Identity", {"X", "Y", "Z"}, &log),
                           TestProvider("p", {"Neg", "Relu"})});
  ASSERT_NE(after, nullptr);
  ASSERT_TRUE(after->Run({{"X", Floats({2}, {1, 2})}}).ok());
  EXPECT_THAT(log, ElementsAre("X=live", "Y=gone", "Z=live"));

  log.clear();
  auto before = MustCreate(
      TextModel(R"(
g (float[2] X) => (float[2] Z, float[2] W) {
  Y = Neg(X)
  W = Identity(X)
  Z = Relu(Y)
}
)"),
      {ProbeProvider("probe", "Identity", {"Y", "Z"}, &log), TestProvider("p", {"Neg", "Relu"})});
  ASSERT_NE(before, nullptr);
  ASSERT_TRUE(before->Run({{"X", Floats({2}, {1, 2})}}).ok());
  EXPECT_THAT(log, ElementsAre("Y=live", "Z=gone"));
}

TEST(SessionTest, ResidentTensorsReachOnlyTheirDomainAndEachHostCopyIsCounted) {
  // a and b run on the resident provider: b reads a's output as it is. Relu (another provider)
  // and the graph output Z need host copies: B is copied once for Relu, and again as the output
  // W; C is copied once, as the output Z.
  std::vector<std::string> log;
  auto session =
      MustCreate(TextModel(R"(
g (float[2] X) => (float[2] Z, float[2] W, float[2] V) {
  B = Neg(X)
  C = Neg(B)
  R = Relu(B)
  V = Relu(R)
  Z = Identity(C)
  W = Identity(B)
}
)"),
                 {ResidentProvider("res", &log), TestProvider("p", {"Relu", "Identity"})});
  ASSERT_NE(session, nullptr);
  TransferStats transfers;
  auto out = session->Run({{"X", Floats({2}, {1, -2})}}, &transfers);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2] {1, -2}");
  EXPECT_EQ((*out)[1].tensor().DebugString(), "FLOAT[2] {-1, 2}");
  EXPECT_EQ((*out)[2].tensor().DebugString(), "FLOAT[2] {0, 2}");
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1].substr(log[1].find(':')), ":resident");
  EXPECT_EQ(log[0].substr(log[0].find(':')), ":host");
  // B once (for Relu and Identity alike: one copy per value), C once.
  EXPECT_EQ(transfers.count, 2);
  EXPECT_EQ(transfers.bytes, 2 * 2 * 4);
}

// Input 0 times `factor`: stands for a fused Neg pair (factor 1) in the claim tests.
class ScaleKernel : public OpKernel {
 public:
  explicit ScaleKernel(float factor) : factor_(factor) {}
  Status Compute(KernelContext& ctx) const override {
    Tensor y = ctx.input_tensor(0)->Clone();
    for (int64_t i = 0; i < y.NumElements(); ++i) y.mutable_data<float>()[i] *= factor_;
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }

 private:
  float factor_;
};

// A claim of `nodes` from `inputs` to `outputs`, run by a ScaleKernel(1).
SubgraphClaim Claim(std::vector<int> nodes, std::vector<std::string> inputs,
                    std::vector<std::string> outputs) {
  SubgraphClaim c;
  c.name = "pair";
  c.nodes = std::move(nodes);
  c.inputs = std::move(inputs);
  c.outputs = std::move(outputs);
  c.kernel = std::make_unique<ScaleKernel>(1.0f);
  return c;
}

constexpr char kNegChain[] = R"(
g (float[2] X) => (float[2] Z, float[2] W) {
  A = Neg(X)
  B = Neg(A)
  W = Relu(X)
  Z = Relu(B)
}
)";

TEST(SessionTest, AProviderMayRunSeveralNodesAsOneKernel) {
  std::vector<int> offered;
  std::vector<int> readers;
  auto claiming = ClaimingProvider("fuse", {"Neg"}, [&](const SubgraphOffer& offer) {
    offered = offer.nodes;
    readers = {offer.readers("X"), offer.readers("A"), offer.readers("Z")};
    std::vector<SubgraphClaim> claims;
    claims.push_back(Claim({0, 1}, {"X"}, {"B"}));
    return claims;
  });
  auto session = MustCreate(TextModel(kNegChain), {claiming, TestProvider("p", {"Relu"})});
  ASSERT_NE(session, nullptr);
  EXPECT_THAT(offered, ElementsAre(0, 1));
  EXPECT_THAT(readers, ElementsAre(2, 1, 1));  // X by Neg and Relu; Z as a graph output
  std::vector<std::string> subgraphs;
  for (const NodePlacement& p : session->placements()) subgraphs.push_back(p.subgraph);
  EXPECT_THAT(subgraphs, ElementsAre("pair", "pair", "", ""));
  auto out = session->Run({{"X", Floats({2}, {3, -4})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2] {3, 0}");
}

TEST(SessionTest, AClaimThatHidesAValueOrTakesANodeTwiceIsRefused) {
  // A claim that leaves out an output read elsewhere, takes a node twice, names an output none
  // of its nodes makes or an input it cannot read is a provider bug: the load fails as Internal.
  struct Case {
    const char* why;
    std::function<std::vector<SubgraphClaim>()> claims;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"B is read by Relu but not an output",
       [] {
         std::vector<SubgraphClaim> c;
         c.push_back(Claim({0, 1}, {"X"}, {}));
         return c;
       },
       "value 'B' is read outside the group but is not an output"},
      {"node 1 twice",
       [] {
         std::vector<SubgraphClaim> c;
         c.push_back(Claim({0, 1}, {"X"}, {"B"}));
         c.push_back(Claim({1}, {"A"}, {"B"}));
         return c;
       },
       "claimed twice"},
      {"an output of no claimed node",
       [] {
         std::vector<SubgraphClaim> c;
         c.push_back(Claim({0}, {"X"}, {"A", "W"}));
         return c;
       },
       "output 'W' is not a value of its nodes"},
      {"an input made after the group runs",
       [] {
         std::vector<SubgraphClaim> c;
         c.push_back(Claim({0, 1}, {"Z"}, {"B"}));
         return c;
       },
       "input 'Z' is not a value the group can read when it runs"},
      {"an input nothing makes",
       [] {
         std::vector<SubgraphClaim> c;
         c.push_back(Claim({0, 1}, {"nowhere"}, {"B"}));
         return c;
       },
       "input 'nowhere' is not a value"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    auto claiming =
        ClaimingProvider("fuse", {"Neg"}, [&](const SubgraphOffer&) { return c.claims(); });
    auto session = Session::Create(TextModel(kNegChain), {claiming, TestProvider("p", {"Relu"})});
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.status().code(), StatusCode::kInternal);
    EXPECT_THAT(session.status().message(), HasSubstr(c.message));
  }
}

TEST(SessionTest, RunIsThreadSafe) {
  auto session = MustCreate(TextModel(kIfModel, 16),
                            {TestProvider("p", {"Neg", "Add", "Relu", "Identity", "If"})});
  ASSERT_NE(session, nullptr);
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        float x = static_cast<float>(t * 1000 + i);
        bool cond = (i % 2) == 0;
        auto out = session->Run(
            {{"C", Value::FromTensor(Tensor::Scalar<bool>(cond))}, {"X", Floats({2}, {x, -x})}});
        // then: K + X = 0; else: the nested If sees the same C and takes Identity(X).
        std::vector<float> want = cond ? std::vector<float>{0, 0} : std::vector<float>{x, -x};
        if (!out.ok() || (*out)[0].tensor().data<float>()[0] != want[0] ||
            (*out)[0].tensor().data<float>()[1] != want[1]) {
          ++failures[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_THAT(failures, ::testing::Each(0));
}

}  // namespace
}  // namespace onnxgate
