// Tests for Graph: order, definitions, outer-scope names, types, and each structural error.
#include "runtime/graph/graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "runtime/model/model_test_util.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Graphs are parsed without the checker so that broken structures reach Graph::Build.
onnx::ModelProto Parse(const std::string& graph_text) {
  auto proto =
      Model::ParseText("<ir_version: 8, opset_import: [\"\" : 14]>\n" + graph_text, "test");
  EXPECT_TRUE(proto.ok()) << proto.status().ToString();
  return proto.ok() ? *proto : onnx::ModelProto();
}

TEST(GraphTest, ResolvesTheAddModel) {
  auto model = Model::Load(TestdataPath("add.onnxtxt"));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto graph = Graph::Build((*model)->graph(), (*model)->dir());
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  const Graph& g = **graph;
  EXPECT_EQ(g.Label(), "graph 'add_graph'");
  EXPECT_THAT(g.inputs(), ElementsAre("A"));
  EXPECT_THAT(g.required_inputs(), ElementsAre("A"));
  EXPECT_THAT(g.outputs(), ElementsAre("C"));
  EXPECT_THAT(g.topological_order(), ElementsAre(0, 1));
  ASSERT_NE(g.ConstantInitializer("B"), nullptr);
  EXPECT_EQ(g.ConstantInitializer("B")->DebugString(), "FLOAT[3] {1, 2, 3}");
  EXPECT_EQ(g.ElementType("A"), DataType::kFloat);
  EXPECT_EQ(g.ElementType("S"), DataType::kFloat);  // from inference's value_info
  EXPECT_EQ(g.TypeOf("S").ToString(), "tensor(float)[2,3]");
  EXPECT_EQ(g.TypeOf("nope").ToString(), "unknown");
  EXPECT_TRUE(g.outer_scope_names().empty());
}

TEST(GraphTest, SortsNodesStably) {
  onnx::ModelProto m = Parse(R"(
g (float[2] X) => (float[2] Z, float[2] W) {
  Z = Relu(Y)
  W = Neg(X)
  Y = Abs(X)
}
)");
  auto graph = Graph::Build(m.graph(), ".");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_THAT((*graph)->topological_order(), ElementsAre(1, 2, 0));
}

TEST(GraphTest, RefusesCycles) {
  onnx::ModelProto m = Parse(R"(
g (float[2] X) => (float[2] Z) {
  Y = Add(X, Z)
  Z = Relu(Y)
}
)");
  auto st = Graph::Build(m.graph(), ".").status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("graph 'g': Add node #0 is part of a cycle"));

  onnx::ModelProto self = Parse("g (float[2] X) => (float[2] Y) {\n Y = Add(X, Y)\n}\n");
  EXPECT_THAT(Graph::Build(self.graph(), ".").status().message(), HasSubstr("cycle"));
}

TEST(GraphTest, RefusesUndefinedInputsAndDoubleDefinitions) {
  onnx::ModelProto m = Parse("g (float[2] X) => (float[2] Y) {\n Y = Add(X, Q)\n}\n");
  m.mutable_graph()->mutable_node(0)->set_name("add1");
  auto st = Graph::Build(m.graph(), ".").status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("Add node 'add1' uses input 'Q', which no node"));

  onnx::ModelProto twice =
      Parse("g (float[2] X) => (float[2] Y) {\n Y = Relu(X)\n Y = Neg(X)\n}\n");
  EXPECT_THAT(Graph::Build(twice.graph(), ".").status().message(),
              HasSubstr("Neg node #1 defines 'Y', which is already defined"));

  onnx::ModelProto no_output = Parse("g (float[2] X) => (float[2] Y) {\n Z = Relu(X)\n}\n");
  EXPECT_THAT(Graph::Build(no_output.graph(), ".").status().message(),
              HasSubstr("graph output 'Y' is not produced"));
}

TEST(GraphTest, OverridableInitializersAreNotConstants) {
  onnx::ModelProto m = Parse(R"(
g (float[2] X, float[2] B = {1.0, 2.0}) => (float[2] Y) {
  Y = Add(X, B)
}
)");
  auto graph = Graph::Build(m.graph(), ".");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_THAT((*graph)->inputs(), ElementsAre("X", "B"));
  EXPECT_THAT((*graph)->required_inputs(), ElementsAre("X"));
  EXPECT_EQ((*graph)->ConstantInitializer("B"), nullptr);
  EXPECT_EQ((*graph)->initializers().count("B"), 1u);
}

TEST(GraphTest, BadInitializerNamesGraphAndTensor) {
  onnx::ModelProto m = Parse("g (float[2] X) => (float[2] Y) {\n Y = Add(X, B)\n}\n");
  onnx::TensorProto* b = m.mutable_graph()->add_initializer();
  b->set_name("B");
  b->set_data_type(onnx::TensorProto::FLOAT);
  b->add_dims(2);
  b->add_float_data(1.f);
  auto st = Graph::Build(m.graph(), ".").status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("graph 'g': initializer: tensor 'B': float_data holds 1"));
}

constexpr char kIfModel[] = R"(
g (bool C, float[2] X) => (float[2] Y) {
  K = Neg(X)
  Y = If <then_branch = t () => (float[2] A) { A = Add(K, X) },
          else_branch = e () => (float[2] B) { B = Identity(X) }> (C)
}
)";

TEST(GraphTest, SubgraphsSeeOuterNames) {
  onnx::ModelProto m = Parse(kIfModel);
  auto main = Graph::Build(m.graph(), ".");
  ASSERT_TRUE(main.ok()) << main.status().ToString();
  EXPECT_THAT((*main)->implicit_inputs(1), ElementsAre("K", "X"));
  EXPECT_TRUE((*main)->implicit_inputs(0).empty());

  const onnx::GraphProto& then_branch = m.graph().node(1).attribute(0).g();
  EXPECT_THAT(FreeNames(then_branch), ElementsAre("K", "X"));
  auto sub = Graph::Build(then_branch, ".", main->get());
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();
  EXPECT_THAT((*sub)->outer_scope_names(), ElementsAre("K", "X"));
  EXPECT_EQ((*sub)->ElementType("X"), DataType::kFloat);  // declared in the parent
  EXPECT_TRUE((*sub)->Defines("K"));
  EXPECT_FALSE((*sub)->DefinesLocally("K"));

  // The else branch outputs an outer name directly.
  auto other = Graph::Build(m.graph().node(1).attribute(1).g(), ".", main->get());
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_THAT((*other)->outer_scope_names(), ElementsAre("X"));

  // Without the parent the same subgraph uses undefined names.
  EXPECT_THAT(Graph::Build(then_branch, ".").status().message(), HasSubstr("uses input 'K'"));
}

TEST(GraphTest, SubgraphUsingAnUndefinedNameIsRefusedInTheParent) {
  onnx::ModelProto m = Parse(R"(
g (bool C, float[2] X) => (float[2] Y) {
  Y = If <then_branch = t () => (float[2] A) { A = Add(Q, X) },
          else_branch = e () => (float[2] B) { B = Identity(X) }> (C)
}
)");
  auto st = Graph::Build(m.graph(), ".").status();
  EXPECT_THAT(st.message(), HasSubstr("If node #0 has a subgraph that uses 'Q'"));
}

TEST(GraphTest, SubgraphDependenciesOrderTheParent) {
  // The If reads K through its subgraph only; it must still run after K's producer.
  onnx::ModelProto m = Parse(R"(
g (bool C, float[2] X) => (float[2] Y) {
  Y = If <then_branch = t () => (float[2] A) { A = Identity(K) },
          else_branch = e () => (float[2] B) { B = Identity(X) }> (C)
  K = Neg(X)
}
)");
  auto graph = Graph::Build(m.graph(), ".");
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_THAT((*graph)->topological_order(), ElementsAre(1, 0));
}

TEST(GraphTest, ValueTypesFromProto) {
  onnx::TypeProto seq;
  seq.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::INT64);
  EXPECT_EQ(ValueTypeFromProto(seq).ToString(), "seq(tensor(int64))");
  onnx::TypeProto opt;
  *opt.mutable_optional_type()->mutable_elem_type() = seq;
  EXPECT_EQ(ValueTypeFromProto(opt).ToString(), "optional(seq(tensor(int64)))");
  onnx::TypeProto t;
  t.mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT16);
  t.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_param("N");
  t.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(3);
  EXPECT_EQ(ValueTypeFromProto(t).ToString(), "tensor(float16)[?,3]");
  onnx::TypeProto map;
  map.mutable_map_type()->set_key_type(onnx::TensorProto::INT64);
  EXPECT_FALSE(ValueTypeFromProto(map).known());
}

TEST(GraphTest, NodeLabels) {
  onnx::NodeProto n;
  n.set_op_type("Relu");
  EXPECT_EQ(NodeLabel(n, 3), "Relu node #3");
  EXPECT_EQ(NodeDisplayName(n, 3), "Relu#3");
  n.set_name("r");
  EXPECT_EQ(NodeLabel(n, 3), "Relu node 'r'");
  EXPECT_EQ(NodeDisplayName(n, 3), "r");
}

}  // namespace
}  // namespace onnxgate
