// Tests for type inference: the child process gives the same types as in-process inference, and a
// libonnx crash in the child leaves the loading process alive.
#include "runtime/model/type_inference.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "runtime/model/model.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

onnx::ModelProto Parse(const std::string& text) {
  auto proto = Model::ParseText(text, "test");
  EXPECT_TRUE(proto.ok()) << proto.status().ToString();
  return proto.ok() ? *proto : onnx::ModelProto();
}

constexpr char kIfModel[] = R"(
<ir_version: 8, opset_import: ["" : 14]>
g (bool C, float[2, 3] X) => (float[2, 3] Y) {
  K = Neg(X)
  Y = If <then_branch = t () => (float[2, 3] A) { T = Cast <to = 7> (K)  A = Cast <to = 1> (T) },
          else_branch = e () => (float[2, 3] B) { B = Identity(X) }> (C)
}
)";

TEST(TypeInferenceTest, ChildAndInProcessAgree) {
  onnx::ModelProto in_process = Parse(kIfModel);
  onnx::ModelProto isolated = Parse(kIfModel);
  ASSERT_TRUE(InferTypes(in_process, /*isolate=*/false).ok);
  InferenceResult r = InferTypes(isolated, /*isolate=*/true);
  ASSERT_TRUE(r.ok) << r.detail;
  EXPECT_EQ(in_process.SerializeAsString(), isolated.SerializeAsString());
  // K in the main graph and T inside the then branch got their types.
  ASSERT_EQ(isolated.graph().value_info_size(), 1);
  EXPECT_EQ(isolated.graph().value_info(0).name(), "K");
  const onnx::GraphProto& then_branch = isolated.graph().node(1).attribute(0).g();
  ASSERT_EQ(then_branch.value_info_size(), 1);
  EXPECT_EQ(then_branch.value_info(0).name(), "T");
  EXPECT_EQ(then_branch.value_info(0).type().tensor_type().elem_type(), onnx::TensorProto::INT64);
}

// LayerNormalization with axis -3 on a rank-2 input passes libonnx 1.12's checker, and its
// inference function then writes dim(-1) of a shape.
constexpr char kCrashingModel[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X, float[2, 3] W) => (float[2, 3] Y, float[2, 3] M, float[2, 3] S) {
  Y, M, S = LayerNormalization <axis = -3> (X, W)
}
)";

TEST(TypeInferenceTest, ACrashInTheChildOnlyCostsTheTypes) {
  onnx::ModelProto model = Parse(kCrashingModel);
  const std::string before = model.SerializeAsString();
  InferenceResult r = InferTypes(model, /*isolate=*/true);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.crashed);
  EXPECT_THAT(r.detail, HasSubstr("crashed"));
  EXPECT_EQ(model.SerializeAsString(), before);

  auto loaded = Model::FromProto(Parse(kCrashingModel), ".", "crash.onnx");
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
}

TEST(TypeInferenceTest, InferenceErrorsAreReported) {
  // Inference refuses an input that is declared twice with different types by its merge step.
  onnx::ModelProto model = Parse(R"(
<ir_version: 8, opset_import: ["" : 14]>
g (float[2] X) => (int64[2] Y) {
  Y = Neg(X)
}
)");
  onnx::ModelProto copy = model;
  InferenceResult isolated = InferTypes(model, /*isolate=*/true);
  InferenceResult in_process = InferTypes(copy, /*isolate=*/false);
  EXPECT_FALSE(isolated.ok);
  EXPECT_FALSE(isolated.crashed);
  EXPECT_THAT(isolated.detail, HasSubstr("Neg"));
  EXPECT_EQ(isolated.ok, in_process.ok);
  EXPECT_EQ(isolated.detail, in_process.detail);
}

}  // namespace
}  // namespace onnxgate
