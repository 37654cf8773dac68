// Intermediate values become graph outputs in node order, with their producing nodes; values
// that are already outputs, inputs or initializers, or whose type is unknown, are not added.
#include "runtime/model/intermediate_outputs.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "runtime/model/model.h"

namespace onnxgate {
namespace {

TEST(IntermediateOutputsTest, AddsEveryTypedNodeOutputInNodeOrder) {
  auto model = Model::ParseText(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
  A = Neg(X)
  B = Relu(A)
  Y = Abs(B)
})",
                                "test");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  model->mutable_graph()->mutable_node(1)->set_name("the_relu");
  auto exposed = ExposeIntermediateOutputs(*model);
  ASSERT_TRUE(exposed.ok()) << exposed.status().ToString();
  ASSERT_EQ(exposed->size(), 2u);
  EXPECT_EQ((*exposed)[0].value, "A");
  EXPECT_EQ((*exposed)[0].node, "Neg#0");
  EXPECT_EQ((*exposed)[1].value, "B");
  EXPECT_EQ((*exposed)[1].node, "the_relu");
  EXPECT_EQ((*exposed)[1].op_type, "Relu");
  EXPECT_EQ((*exposed)[1].node_index, 1);
  ASSERT_EQ(model->graph().output_size(), 3);
  EXPECT_EQ(model->graph().output(0).name(), "Y");
  EXPECT_EQ(model->graph().output(2).name(), "B");
  EXPECT_EQ(model->graph().output(2).type().tensor_type().elem_type(), onnx::TensorProto::FLOAT);
}

TEST(IntermediateOutputsTest, GraphOutputProducersInNodeOrder) {
  auto model = Model::ParseText(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Z, float[2] Y, float[2] X2) {
  Y = Neg(X)
  Z = Relu(Y)
  X2 = Identity(X)
})",
                                "test");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  std::vector<ExposedValue> producers = GraphOutputProducers(*model);
  ASSERT_EQ(producers.size(), 3u);
  EXPECT_EQ(producers[0].value, "Y");
  EXPECT_EQ(producers[0].node, "Neg#0");
  EXPECT_EQ(producers[1].value, "Z");
  EXPECT_EQ(producers[1].node_index, 1);
  EXPECT_EQ(producers[2].op_type, "Identity");
}

}  // namespace
}  // namespace onnxgate
