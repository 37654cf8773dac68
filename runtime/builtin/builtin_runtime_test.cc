// Tests for the built-in RuntimeUnderTest: provider names, the provider hook, load and run
// through the interface, claims, the deliberately broken test providers, and end-to-end runs on
// the ref provider.
#include "runtime/builtin/builtin_runtime.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

#include "runtime/ep/ref/ref_provider.h"
#include "runtime/ep/testing/test_providers.h"
#include "runtime/model/model_test_util.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/session/session_test_kernels.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Value Floats(Shape shape, std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>(std::move(shape), v));
}

LoadOptions On(std::vector<std::string> providers,
               FallbackPolicy fallback = FallbackPolicy::kAllow) {
  LoadOptions options;
  options.providers = std::move(providers);
  options.fallback = fallback;
  return options;
}

TEST(FallbackPolicyTest, NamesRoundTrip) {
  for (FallbackPolicy p :
       {FallbackPolicy::kAllow, FallbackPolicy::kWarn, FallbackPolicy::kForbid}) {
    auto back = FallbackPolicyFromName(FallbackPolicyName(p));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, p);
  }
  EXPECT_EQ(FallbackPolicyFromName("sometimes").status().code(), StatusCode::kInvalidArgument);
}

TEST(BuiltinRuntimeTest, OffersRefAndNoProviderBrokenOnPurpose) {
  auto runtime = CreateBuiltinRuntime();
  EXPECT_EQ(runtime->name(), "onnxgate");
  std::vector<std::string> expected = {"ref"};
#if ONNXGATE_WITH_DNNL
  expected.push_back("dnnl");
#endif
#if ONNXGATE_WITH_OPENCL
  expected.push_back("opencl");
#endif
  EXPECT_EQ(runtime->providers(), expected);
  for (const char* test_only : {"test-crash", "test-hang", "test-broken-relu"}) {
    EXPECT_EQ(runtime->Claims(test_only).status().code(), StatusCode::kInvalidArgument);
  }
  auto st = runtime->Load(TestdataPath("relu.onnxtxt"), On({"gpu"})).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(),
              HasSubstr("unknown execution provider 'gpu'; this runtime offers: ref"));
  EXPECT_THAT(runtime->Load(TestdataPath("relu.onnxtxt"), On({"ref", "ref"})).status().message(),
              HasSubstr("'ref' is requested twice"));
  EXPECT_EQ(runtime->Load(TestdataPath("relu.onnxtxt"), On({})).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(runtime->Claims("gpu").status().code(), StatusCode::kInvalidArgument);
}

TEST(BuiltinRuntimeTest, SaysItsVersionTheVersionsItAcceptsAndWhatAModelTakes) {
  auto runtime = CreateBuiltinRuntime();
  EXPECT_THAT(runtime->version(), HasSubstr(std::string("(ONNX ") + OnnxReleaseVersion() + ")"));
  const AcceptedVersions accepted = runtime->accepted_versions();
  EXPECT_EQ(accepted.ir.max, MaxIrVersion());
  ASSERT_EQ(accepted.opsets.count(""), 1u);
  EXPECT_EQ(accepted.opsets.at("").max, MaxOpset(""));
  EXPECT_EQ(accepted.opsets.at("ai.onnx.ml").max, MaxOpset("ai.onnx.ml"));

  auto model = runtime->Load(TestdataPath("add.onnxtxt"), On({"ref"}));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const std::vector<ValueInfo> inputs = (*model)->inputs();
  ASSERT_EQ(inputs.size(), 1u);  // B has an initializer: not an input a caller must feed
  EXPECT_EQ(inputs[0].name, "A");
  EXPECT_EQ(inputs[0].kind, Value::Kind::kTensor);
  EXPECT_EQ(inputs[0].elem_type, DataType::kFloat);
  ASSERT_TRUE(inputs[0].has_shape);
  ASSERT_EQ(inputs[0].dims.size(), 2u);
  EXPECT_EQ(inputs[0].dims[1].size, 3);
  EXPECT_THAT((*model)->output_names(), ElementsAre("C"));
  EXPECT_TRUE((*model)->metadata().empty());
}

TEST(BuiltinRuntimeTest, TakesNoRuntimeOptions) {
  EXPECT_TRUE(CreateBuiltinRuntimeFromOptions({}).ok());
  auto refused = CreateBuiltinRuntimeFromOptions({{"arena", "off"}});
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("takes no runtime options; got 'arena'"));
}

// A runtime offering only test kernels, through the provider hook; counts provider creations.
class HookTest : public ::testing::Test {
 protected:
  void SetUp() override {
    creations_ = 0;
    runtime_ = CreateBuiltinRuntime(
        {{"mine",
          [this]() -> StatusOr<std::shared_ptr<const ExecutionProvider>> {
            ++creations_;
            return testing_kernels::TestProvider("mine", {"Relu", "Add"});
          }},
         {"broken", []() -> StatusOr<std::shared_ptr<const ExecutionProvider>> {
            return Unavailable("no device");
          }}});
  }
  std::atomic<int> creations_{0};
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

TEST_F(HookTest, LoadsAndRunsThroughTheInterface) {
  auto model = runtime_->Load(TestdataPath("add.onnxtxt"), On({"mine"}));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_THAT((*model)->input_names(), ElementsAre("A"));
  EXPECT_THAT((*model)->output_names(), ElementsAre("C"));
  auto out = (*model)->Run({{"A", Floats({2, 3}, {1, -10, 0, 1, 1, 1})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2,3] {2, 0, 3, 2, 3, 4}");
  auto placements = (*model)->placements();
  ASSERT_EQ(placements.size(), 2u);
  EXPECT_EQ(placements[0].provider, "mine");
  EXPECT_EQ(placements[1].op_type, "Relu");

  auto missing = (*model)->Run({});
  EXPECT_THAT(missing.status().message(), HasSubstr("missing input 'A'"));
}

TEST_F(HookTest, ProvidersAreCreatedOnceAndTheirErrorsKept) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(runtime_->Load(TestdataPath("relu.onnxtxt"), On({"mine"})).ok());
  }
  EXPECT_TRUE(runtime_->Claims("mine").ok());
  EXPECT_EQ(creations_, 1);
  auto st = runtime_->Load(TestdataPath("relu.onnxtxt"), On({"broken", "mine"})).status();
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  EXPECT_THAT(st.message(), HasSubstr("no device"));
}

TEST_F(HookTest, ClaimsListTheRegistry) {
  auto claims = runtime_->Claims("mine");
  ASSERT_TRUE(claims.ok());
  ASSERT_EQ(claims->size(), 2u);
  EXPECT_EQ((*claims)[0].op_type, "Relu");
  EXPECT_EQ((*claims)[0].since_version, 1);
  EXPECT_EQ((*claims)[0].until_version, MaxOpset(""));
  ASSERT_EQ((*claims)[0].type_constraints.size(), 1u);
  EXPECT_EQ((*claims)[0].type_constraints[0].name, "T");
}

// ref is appended after the requested providers, so the nodes they decline run on ref and the
// placement records the fallback; under kForbid the load fails naming node, reason and ref.
class RefFallbackTest : public ::testing::Test {
 protected:
  std::unique_ptr<RuntimeUnderTest> runtime_ = CreateBuiltinRuntime(
      {{"ref", CreateRefProvider},
       {"relu-only", []() -> StatusOr<std::shared_ptr<const ExecutionProvider>> {
          return testing_kernels::TestProvider("relu-only", {"Relu"});
        }}});
};

TEST_F(RefFallbackTest, NodesTheRequestedProviderDeclinesRunOnRef) {
  auto model = runtime_->Load(TestdataPath("add.onnxtxt"), On({"relu-only"}));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto out = (*model)->Run({{"A", Floats({2, 3}, {1, -10, 0, 1, 1, 1})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2,3] {2, 0, 3, 2, 3, 4}");
  const std::vector<NodePlacement> placements = (*model)->placements();
  ASSERT_EQ(placements.size(), 2u);
  EXPECT_EQ(placements[0].op_type, "Add");
  EXPECT_EQ(placements[0].provider, "ref");
  ASSERT_EQ(placements[0].declines.size(), 1u);
  EXPECT_EQ(placements[0].declines[0].provider, "relu-only");
  EXPECT_THAT(placements[0].declines[0].reason, HasSubstr("Add"));
  EXPECT_EQ(placements[1].op_type, "Relu");
  EXPECT_EQ(placements[1].provider, "relu-only");
  EXPECT_TRUE(placements[1].declines.empty());
}

TEST_F(RefFallbackTest, ForbiddenFallbackRefusesTheLoadNamingNodeReasonAndRef) {
  Status st =
      runtime_->Load(TestdataPath("add.onnxtxt"), On({"relu-only"}, FallbackPolicy::kForbid))
          .status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("Add node 'Add#0': fallback is forbidden"));
  EXPECT_THAT(st.message(), HasSubstr("relu-only"));
  EXPECT_THAT(st.message(), HasSubstr("it would run on 'ref'"));
  // A model the requested provider takes whole loads under kForbid.
  const LoadOptions forbid = On({"relu-only"}, FallbackPolicy::kForbid);
  EXPECT_TRUE(runtime_->Load(TestdataPath("relu.onnxtxt"), forbid).ok());
}

TEST_F(RefFallbackTest, ARequestThatNamesRefKeepsItsOrder) {
  auto model = runtime_->Load(TestdataPath("add.onnxtxt"), On({"ref", "relu-only"}));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  for (const NodePlacement& p : (*model)->placements()) EXPECT_EQ(p.provider, "ref");
}

TEST(BuiltinRuntimeOptionsTest, ModelOptionsApply) {
  ModelOptions shallow;
  shallow.max_nodes = 1;
  shallow.isolate_shape_inference = false;
  auto runtime = CreateBuiltinRuntime(BuiltinProviderEntries(), shallow);
  EXPECT_TRUE(runtime->Load(TestdataPath("relu.onnxtxt"), On({"ref"})).ok());
  auto st = runtime->Load(TestdataPath("add.onnxtxt"), On({"ref"})).status();
  EXPECT_THAT(st.message(), HasSubstr("more than 1 nodes"));
}

TEST_F(HookTest, LoadErrorsKeepTheirCodes) {
  ScratchDir dir;
  auto bad = runtime_->Load(dir.Write("model.onnx", "garbage\x01\x02"), On({"mine"}));
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  auto missing = runtime_->Load(dir.path() + "/none.onnx", On({"mine"}));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  std::string neg = dir.WriteModel("neg.onnx", R"(
<ir_version: 8, opset_import: ["" : 14]>
g (float[2] X) => (float[2] Y) {
  Y = Neg(X)
}
)");
  auto declined = runtime_->Load(neg, On({"mine"}));
  EXPECT_EQ(declined.status().code(), StatusCode::kUnimplemented);
  // Levels 1 and 2 rewrite the model first (runtime/optimizer); a level that does not exist is a
  // bad request.
  LoadOptions level = On({"mine"});
  level.optimization_level = 2;
  EXPECT_TRUE(runtime_->Load(TestdataPath("relu.onnxtxt"), level).ok());
  level.optimization_level = 3;
  EXPECT_EQ(runtime_->Load(TestdataPath("relu.onnxtxt"), level).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(TestProvidersDeathTest, CrashAndHangAreReal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto created = CreateRuntimeWithTestProviders();
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::unique_ptr<RuntimeUnderTest>& runtime = *created;
  auto crash = runtime->Load(TestdataPath("relu.onnxtxt"), On({"test-crash"}));
  ASSERT_TRUE(crash.ok()) << crash.status().ToString();
  EXPECT_EQ(crash.value()->placements()[0].provider, "test-crash");
  EXPECT_EXIT((void)crash.value()->Run({{"X", Floats({1, 4}, {1, 2, 3, 4})}}),
              ::testing::KilledBySignal(SIGSEGV), "");

  auto hang = runtime->Load(TestdataPath("relu.onnxtxt"), On({"test-hang"}));
  ASSERT_TRUE(hang.ok()) << hang.status().ToString();
  // The alarm ends the hanging child; were Relu to return, the child would exit normally.
  EXPECT_EXIT(
      {
        alarm(1);
        (void)hang.value()->Run({{"X", Floats({1, 4}, {1, 2, 3, 4})}});
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGALRM), "");

  // Other ops decline: they fall back to ref, or fail the load when fallback is forbidden.
  auto add = runtime->Load(TestdataPath("add.onnxtxt"), On({"test-crash"}));
  ASSERT_TRUE(add.ok()) << add.status().ToString();
  EXPECT_EQ(add.value()->placements()[0].provider, "ref");
  EXPECT_EQ(add.value()->placements()[1].provider, "test-crash");
  EXPECT_EQ(runtime->Load(TestdataPath("add.onnxtxt"), On({"test-crash"}, FallbackPolicy::kForbid))
                .status()
                .code(),
            StatusCode::kUnimplemented);
}

// End to end on the ref provider's real kernels.
TEST(RefEndToEndTest, AddAndRelu) {
  auto runtime = CreateBuiltinRuntime();
  auto model = runtime->Load(TestdataPath("add.onnxtxt"), On({"ref"}, FallbackPolicy::kForbid));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto out = (*model)->Run({{"A", Floats({2, 3}, {-5, 0, 1, -1, -2, -4})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2,3] {0, 2, 4, 0, 0, 0}");
  for (const auto& p : (*model)->placements()) EXPECT_EQ(p.provider, "ref");
  auto claims = runtime->Claims("ref");
  ASSERT_TRUE(claims.ok());
  EXPECT_FALSE(claims->empty());
}

// ReduceMean-18 takes axes as an input where ReduceMean-13 had an attribute: each opset's model
// runs on the kernel range of its own version and reduces the axis it names. (A version newer
// than every kernel range is UNSUPPORTED, never run on an older kernel: session_test.cc and
// registration_check_test.cc prove that with ranges made for the purpose.)
TEST(RefEndToEndTest, ReduceMean18ReadsItsAxesInputAndReduceMean13ItsAttribute) {
  ScratchDir dir;
  const std::string path18 = dir.Write("reduce_mean_18.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 18]>
mean_graph (float[2, 3] X, int64[1] axes) => (float[2, 1] Y) {
  Y = ReduceMean <keepdims = 1> (X, axes)
})");
  const std::string path17 = dir.Write("reduce_mean_13.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 17]>
mean_graph (float[2, 3] X) => (float[2, 1] Y) {
  Y = ReduceMean <axes = [1], keepdims = 1> (X)
})");
  auto runtime = CreateBuiltinRuntime();
  auto model18 = runtime->Load(path18, On({"ref"}, FallbackPolicy::kForbid));
  ASSERT_TRUE(model18.ok()) << model18.status().ToString();
  const Value axes = Value::FromTensor(Tensor::FromVector<int64_t>(Shape({1}), {1}));
  auto out18 = (*model18)->Run({{"X", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"axes", axes}});
  ASSERT_TRUE(out18.ok()) << out18.status().ToString();
  EXPECT_EQ((*out18)[0].tensor().DebugString(), "FLOAT[2,1] {2, 5}");

  auto model17 = runtime->Load(path17, On({"ref"}, FallbackPolicy::kForbid));
  ASSERT_TRUE(model17.ok()) << model17.status().ToString();
  auto out17 = (*model17)->Run({{"X", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out17.ok()) << out17.status().ToString();
  EXPECT_EQ((*out17)[0].tensor().DebugString(), "FLOAT[2,1] {2, 5}");
}

// A ref kernel's error names its node once, with the op version, whether the kernel refuses the
// node at load (a bad attribute) or fails at run (a bad input value).
TEST(RefEndToEndTest, KernelErrorsNameTheirNodeOnceWithItsVersion) {
  ScratchDir dir;
  const std::string bad_split = dir.Write("bad_split.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 4] X) => (float[1, 4] Y, float[1, 4] Z) {
  Y, Z = Split <num_outputs = 0> (X)
})");
  const std::string bad_shape = dir.Write("bad_shape.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X, int64[2] S) => (float[N, M] Y) {
  Y = Reshape (X, S)
})");
  auto count = [](const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
  };
  auto runtime = CreateBuiltinRuntime();
  auto refused = runtime->Load(bad_split, On({"ref"}, FallbackPolicy::kForbid));
  ASSERT_FALSE(refused.ok());
  const std::string load_error = refused.status().message();
  EXPECT_THAT(load_error,
              HasSubstr("Split node 'Split#0' (version 18) on provider 'ref': attribute "
                        "'num_outputs' must be at least 1, got 0"));
  EXPECT_EQ(count(load_error, "Split node"), 1u) << load_error;

  auto model = runtime->Load(bad_shape, On({"ref"}, FallbackPolicy::kForbid));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const Value shape = Value::FromTensor(Tensor::FromVector<int64_t>(Shape({2}), {4, 4}));
  auto failed = (*model)->Run({{"X", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"S", shape}});
  ASSERT_FALSE(failed.ok());
  const std::string run_error = failed.status().message();
  EXPECT_THAT(run_error, HasSubstr("Reshape node 'Reshape#0' (version 14): "));
  EXPECT_EQ(count(run_error, "Reshape node"), 1u) << run_error;
}

}  // namespace
}  // namespace onnxgate
