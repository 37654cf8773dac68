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

TEST(TypeInferenceTest, IsolatedLoadsShareOneServer) {
  onnx::ModelProto first = Parse(kIfModel);
  ASSERT_TRUE(InferTypes(first, /*isolate=*/true).ok);
  const pid_t server = ShapeInferenceServerPid();
  EXPECT_GT(server, 0);
  EXPECT_NE(server, getpid());
  // A crash in another inference function's child does not touch the shared server.
  onnx::ModelProto crashing = Parse(kIfModel);
  EXPECT_TRUE(InferTypesWith(crashing, /*isolate=*/true, 60, [](onnx::ModelProto&) {
                std::raise(SIGSEGV);
                return std::string();
              }).crashed);
  for (int i = 0; i < 3; ++i) {
    onnx::ModelProto again = Parse(kIfModel);
    ASSERT_TRUE(InferTypes(again, /*isolate=*/true).ok);
    EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  }
  EXPECT_EQ(ShapeInferenceServerPid(), server);
}

TEST(TypeInferenceTest, ALargeModelIsInferredInAForkOfItsOwn) {
  // 17 MiB of initializer: more than a request carries to the server.
  onnx::ModelProto isolated = Parse(kIfModel);
  onnx::TensorProto* weights = isolated.mutable_graph()->add_initializer();
  weights->set_name("W");
  weights->set_data_type(onnx::TensorProto::FLOAT);
  weights->add_dims(17 << 18);
  weights->set_raw_data(std::string(size_t{17} << 20, '\0'));
  onnx::ModelProto in_process = isolated;
  ASSERT_TRUE(InferTypes(in_process, /*isolate=*/false).ok);
  InferenceResult r = InferTypes(isolated, /*isolate=*/true);
  ASSERT_TRUE(r.ok) << r.detail;
  EXPECT_EQ(isolated.graph().value_info_size(), 1);
  EXPECT_TRUE(isolated.SerializeAsString() == in_process.SerializeAsString());
}

// `depth` Ifs, each in the then branch of the one above; every else branch and the innermost then
// branch take X from the outermost scope.
onnx::ModelProto NestedIfs(int depth) {
  onnx::ModelProto model = Parse(kIfModel);
  onnx::GraphProto branch;
  branch.set_name("b0");
  onnx::NodeProto* identity = branch.add_node();
  identity->set_op_type("Identity");
  identity->add_input("X");
  identity->add_output("Y0");
  *branch.add_output() = model.graph().output(0);
  branch.mutable_output(0)->set_name("Y0");
  const onnx::GraphProto leaf = branch;
  for (int level = 1; level <= depth; ++level) {
    onnx::GraphProto outer;
    outer.set_name("b" + std::to_string(level));
    onnx::NodeProto* node = outer.add_node();
    node->set_op_type("If");
    node->add_input("C");
    node->add_output("Y" + std::to_string(level));
    onnx::AttributeProto* then_branch = node->add_attribute();
    then_branch->set_name("then_branch");
    then_branch->set_type(onnx::AttributeProto::GRAPH);
    *then_branch->mutable_g() = branch;
    onnx::AttributeProto* else_branch = node->add_attribute();
    else_branch->set_name("else_branch");
    else_branch->set_type(onnx::AttributeProto::GRAPH);
    *else_branch->mutable_g() = leaf;
    *outer.add_output() = branch.output(0);
    outer.mutable_output(0)->set_name("Y" + std::to_string(level));
    branch = std::move(outer);
  }
  // The model's graph: Y = Identity(Y<depth>) after the outermost If.
  onnx::GraphProto* graph = model.mutable_graph();
  graph->clear_node();
  *graph->add_node() = branch.node(0);
  onnx::NodeProto* last = graph->add_node();
  last->set_op_type("Identity");
  last->add_input(branch.output(0).name());
  last->add_output("Y");
  return model;
}

TEST(TypeInferenceTest, DeeplyNestedSubgraphsReachTheServer) {
  // Deeper than protobuf's default parse limit of 100 nested messages.
  onnx::ModelProto isolated = NestedIfs(40);
  onnx::ModelProto in_process = isolated;
  ASSERT_TRUE(InferTypes(in_process, /*isolate=*/false).ok);
  InferenceResult r = InferTypes(isolated, /*isolate=*/true);
  ASSERT_TRUE(r.ok) << r.detail;
  EXPECT_EQ(isolated.SerializeAsString(), in_process.SerializeAsString());
  EXPECT_EQ(isolated.graph().value_info_size(), 1);
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
