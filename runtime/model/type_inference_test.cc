// Tests for type inference: the child process gives the same types as in-process inference, and a
// crash or hang of inference in the child leaves the loading process alive.
#include "runtime/model/type_inference.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <csignal>

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

TEST(TypeInferenceTest, ACrashInTheChildOnlyCostsTheTypes) {
  onnx::ModelProto model = Parse(kIfModel);
  const std::string before = model.SerializeAsString();
  InferenceResult r = InferTypesWith(model, /*isolate=*/true, 60, [](onnx::ModelProto&) {
    std::raise(SIGSEGV);
    return std::string();
  });
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.crashed);
  EXPECT_THAT(r.detail, HasSubstr("crashed (signal 11"));
  EXPECT_EQ(model.SerializeAsString(), before);
}

TEST(TypeInferenceTest, AHangInTheChildEndsAtTheTimeout) {
  onnx::ModelProto model = Parse(kIfModel);
  InferenceResult r = InferTypesWith(model, /*isolate=*/true, 1, [](onnx::ModelProto&) {
    for (;;) pause();
    return std::string();
  });
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.crashed);
  EXPECT_THAT(r.detail, HasSubstr("did not finish within 1 s"));
}

TEST(TypeInferenceTest, InferenceErrorsAreReported) {
  // ONNX 1.23.2 tolerates node-level errors in its default mode; the error path is what counts
  // here: the child reports an error like in-process inference does, without calling it a crash.
  auto failing = [](onnx::ModelProto&) { return std::string("(op_type:Neg): bad input"); };
  onnx::ModelProto model = Parse(kIfModel);
  onnx::ModelProto copy = model;
  InferenceResult isolated = InferTypesWith(model, /*isolate=*/true, 60, failing);
  InferenceResult in_process = InferTypesWith(copy, /*isolate=*/false, 60, failing);
  EXPECT_FALSE(isolated.ok);
  EXPECT_FALSE(isolated.crashed);
  EXPECT_THAT(isolated.detail, HasSubstr("shape inference failed: (op_type:Neg): bad input"));
  EXPECT_EQ(isolated.ok, in_process.ok);
  EXPECT_EQ(isolated.detail, in_process.detail);
}

}  // namespace
}  // namespace onnxgate
