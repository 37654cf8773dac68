// Tests of the pooling ops' attributes as each version defines them: kernel_shape required,
// storage_order from MaxPool-8, count_include_pad from AveragePool-7, and what comes too early.
#include "runtime/provider/common/pool_attributes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

onnx::NodeProto PoolNode(const std::string& op, int outputs = 1) {
  onnx::NodeProto node;
  node.set_op_type(op);
  node.add_input("X");
  for (int i = 0; i < outputs; ++i) node.add_output("Y" + std::to_string(i));
  onnx::AttributeProto* kernel = node.add_attribute();
  kernel->set_name("kernel_shape");
  kernel->set_type(onnx::AttributeProto::INTS);
  kernel->add_ints(2);
  kernel->add_ints(2);
  return node;
}

void SetInt(onnx::NodeProto& node, const std::string& name, int64_t value) {
  onnx::AttributeProto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

TEST(PoolAttributesTest, MaxPoolReadsStorageOrderFromVersion8) {
  onnx::NodeProto node = PoolNode("MaxPool", 2);
  SetInt(node, "storage_order", 1);
  auto parsed = ParseMaxPoolAttributes(KernelInfo(node, 8, {DataType::kFloat}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->options.kind, PoolKind::kMax);
  EXPECT_TRUE(parsed->options.column_major_indices);
  EXPECT_EQ(parsed->attrs.kernel_shape, (std::vector<int64_t>{2, 2}));

  auto early = ParseMaxPoolAttributes(KernelInfo(node, 1, {DataType::kFloat}));
  EXPECT_EQ(early.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(early.status().message(),
              HasSubstr("'storage_order' is only defined from MaxPool-8"));

  onnx::NodeProto two = PoolNode("MaxPool", 2);
  auto indices = ParseMaxPoolAttributes(KernelInfo(two, 1, {DataType::kFloat}));
  EXPECT_THAT(indices.status().message(),
              HasSubstr("Indices output is only defined from MaxPool-8"));

  onnx::NodeProto bad = PoolNode("MaxPool");
  SetInt(bad, "storage_order", 2);
  auto wrong = ParseMaxPoolAttributes(KernelInfo(bad, 12, {DataType::kFloat}));
  EXPECT_THAT(wrong.status().message(), HasSubstr("'storage_order' must be 0 or 1, got 2"));
}

TEST(PoolAttributesTest, AveragePoolReadsCountIncludePadFromVersion7) {
  onnx::NodeProto node = PoolNode("AveragePool");
  SetInt(node, "count_include_pad", 1);
  auto parsed = ParseAveragePoolAttributes(KernelInfo(node, 7, {DataType::kFloat}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->options.kind, PoolKind::kAverage);
  EXPECT_TRUE(parsed->options.count_include_pad);
  auto early = ParseAveragePoolAttributes(KernelInfo(node, 1, {DataType::kFloat}));
  EXPECT_THAT(early.status().message(),
              HasSubstr("'count_include_pad' is only defined from AveragePool-7"));
}

TEST(PoolAttributesTest, KernelShapeIsRequiredAndCeilModeComesWithVersion10) {
  onnx::NodeProto node;
  node.set_op_type("AveragePool");
  node.add_input("X");
  node.add_output("Y");
  EXPECT_EQ(ParseAveragePoolAttributes(KernelInfo(node, 11, {DataType::kFloat})).status().code(),
            StatusCode::kInvalidArgument);
  onnx::NodeProto ceil = PoolNode("AveragePool");
  SetInt(ceil, "ceil_mode", 1);
  auto v10 = ParsePoolAttributes(KernelInfo(ceil, 10, {DataType::kFloat}), true, false);
  ASSERT_TRUE(v10.ok()) << v10.status().ToString();
  EXPECT_TRUE(v10->ceil_mode);
  EXPECT_FALSE(ParsePoolAttributes(KernelInfo(ceil, 7, {DataType::kFloat}), false, false).ok());
}

}  // namespace
}  // namespace onnxgate
