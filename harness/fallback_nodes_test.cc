// The shape-only rule and the fallback nodes taken from placements.
#include "harness/fallback_nodes.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

namespace onnxgate {
namespace {

TEST(FallbackNodesTest, ShapeOpsAreShapeOnlyAndTypeDependentOpsOnlyOnInt64) {
  EXPECT_TRUE(IsShapeOnlyNode("", "Shape", false));
  EXPECT_TRUE(IsShapeOnlyNode("ai.onnx", "Size", false));
  EXPECT_TRUE(IsShapeOnlyNode("", "Constant", false));
  EXPECT_TRUE(IsShapeOnlyNode("", "Gather", true));
  EXPECT_FALSE(IsShapeOnlyNode("", "Gather", false));
  EXPECT_TRUE(IsShapeOnlyNode("", "Unsqueeze", true));
  EXPECT_FALSE(IsShapeOnlyNode("", "Unsqueeze", false));
  EXPECT_FALSE(IsShapeOnlyNode("", "Add", true));
  EXPECT_FALSE(IsShapeOnlyNode("com.example", "Shape", false));
}

void AddNode(onnx::GraphProto* g, const std::string& name, const std::string& op,
             std::vector<std::string> inputs, const std::string& output) {
  onnx::NodeProto* n = g->add_node();
  n->set_name(name);
  n->set_op_type(op);
  for (const std::string& in : inputs) n->add_input(in);
  n->add_output(output);
}

// X (float, [2,3]) -> Shape -> Gather(index 0) -> the int64 batch size; X -> Gather(axis 0)
// -> float rows. Only inference says which Gather returns int64.
onnx::ModelProto ShapeAndDataGathers() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("g");
  onnx::ValueInfoProto* x = g->add_input();
  x->set_name("X");
  auto* t = x->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  t->mutable_shape()->add_dim()->set_dim_value(2);
  t->mutable_shape()->add_dim()->set_dim_value(3);
  onnx::TensorProto* i = g->add_initializer();
  i->set_name("I");
  i->set_data_type(onnx::TensorProto::INT64);
  i->add_int64_data(0);
  AddNode(g, "shape", "Shape", {"X"}, "S");
  AddNode(g, "batch", "Gather", {"S", "I"}, "B");
  AddNode(g, "", "Gather", {"X", "I"}, "R");
  for (const char* out : {"B", "R"}) g->add_output()->set_name(out);
  return m;
}

TEST(FallbackNodesTest, InferenceFindsTheNodesReturningInt64) {
  const onnx::ModelProto m = ShapeAndDataGathers();
  EXPECT_TRUE(HasTypeDependentNodes(m));
  const std::set<std::string> int64 = NodesWithInt64Outputs(m);
  EXPECT_EQ(int64, (std::set<std::string>{"shape", "batch"}));
}

TEST(FallbackNodesTest, NodesToPlaceLeaveOutWhatFoldingMayRemoveAboveLevelZero) {
  onnx::ModelProto m = ShapeAndDataGathers();
  AddNode(m.mutable_graph(), "constant", "Constant", {}, "C");
  AddNode(m.mutable_graph(), "folded", "Neg", {"C"}, "D");
  EXPECT_EQ(NodesToPlace(m, 0), 5);
  EXPECT_EQ(NodesToPlace(m, 1), 3);  // shape, batch and the data Gather depend on X
  onnx::ModelProto constant_only;
  AddNode(constant_only.mutable_graph(), "", "Constant", {}, "C");
  EXPECT_EQ(NodesToPlace(constant_only, 0), 1);
  EXPECT_EQ(NodesToPlace(constant_only, 2), 0);
}

TEST(FallbackNodesTest, NodesOffTheFirstProviderAreFallbacksMarkedByTheRule) {
  const std::set<std::string> int64 = {"shape", "batch"};
  auto placed = [](const std::string& node, const std::string& op, const std::string& provider) {
    NodePlacement p;
    p.node_name = node;
    p.op_type = op;
    p.provider = provider;
    return p;
  };
  const std::vector<NodePlacement> placements = {
      placed("shape", "Shape", "cpu"), placed("batch", "Gather", "cpu"),
      placed("Gather#2", "Gather", "cpu"), placed("relu", "Relu", "accel")};
  std::vector<FallbackRecord> f = FallbackNodes(placements, "accel", &int64);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[0].shape_only);
  EXPECT_TRUE(f[1].shape_only);
  EXPECT_FALSE(f[2].shape_only);
  EXPECT_EQ(f[2].node, "Gather#2");
  EXPECT_EQ(f[2].ep, "cpu");
  // Without types only the ops that are always shape-only count as such.
  f = FallbackNodes(placements, "accel", nullptr);
  EXPECT_TRUE(f[0].shape_only);
  EXPECT_FALSE(f[1].shape_only);
}

}  // namespace
}  // namespace onnxgate
