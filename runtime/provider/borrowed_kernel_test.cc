// Tests of CreateBorrowedKernel: the lender's kernel for the node's domain, op and version, its
// factory's own errors, and a refusal naming the lender.
#include "runtime/provider/borrowed_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// A kernel that remembers which registration made it.
class TaggedKernel : public OpKernel {
 public:
  explicit TaggedKernel(int tag) : tag_(tag) {}
  Status Compute(KernelContext&) const override { return OkStatus(); }
  int tag() const { return tag_; }

 private:
  int tag_;
};

KernelFactory Tagged(int tag) {
  return [tag](const KernelInfo& info) -> StatusOr<std::unique_ptr<OpKernel>> {
    if (info.has_attribute("refuse")) return InvalidArgument("attribute 'refuse' is set");
    return std::unique_ptr<OpKernel>(new TaggedKernel(tag));
  };
}

std::shared_ptr<const ExecutionProvider> Lender() {
  auto lender = RegistryProvider::Create("lender", [](KernelRegistry& r) -> Status {
    ONNXGATE_RETURN_IF_ERROR(
        r.Register(KernelDef{"",
                             "Gather",
                             1,
                             10,
                             {{"T", {DataType::kFloat}}, {"Tind", {DataType::kInt64}}},
                             Tagged(1)}));
    ONNXGATE_RETURN_IF_ERROR(
        r.Register(KernelDef{"",
                             "Gather",
                             11,
                             13,
                             {{"T", {DataType::kFloat}}, {"Tind", {DataType::kInt64}}},
                             Tagged(2)}));
    return r.Register(KernelDef{"",
                                "Gather",
                                11,
                                13,
                                {{"T", {DataType::kFloat}}, {"Tind", {DataType::kInt32}}},
                                Tagged(3)});
  });
  EXPECT_TRUE(lender.ok()) << lender.status().ToString();
  return lender.ok() ? *lender : nullptr;
}

onnx::NodeProto Node(const std::string& domain, const std::string& op) {
  onnx::NodeProto node;
  node.set_domain(domain);
  node.set_op_type(op);
  node.add_input("data");
  node.add_input("indices");
  node.add_output("y");
  return node;
}

int TagOf(const StatusOr<std::unique_ptr<OpKernel>>& kernel) {
  if (!kernel.ok()) return -1;
  auto* tagged = dynamic_cast<const TaggedKernel*>(kernel->get());
  return tagged == nullptr ? -1 : tagged->tag();
}

TEST(BorrowedKernelTest, CreatesTheLendersKernelForTheNodesVersionAndTypes) {
  auto lender = Lender();
  ASSERT_NE(lender, nullptr);
  onnx::NodeProto node = Node("", "Gather");
  KernelInfo v1(node, 1, {DataType::kFloat, DataType::kInt64});
  EXPECT_EQ(TagOf(CreateBorrowedKernel(*lender, v1,
                                       {{"T", DataType::kFloat}, {"Tind", DataType::kInt64}})),
            1);
  KernelInfo v11(node, 11, {DataType::kFloat, DataType::kInt32});
  EXPECT_EQ(TagOf(CreateBorrowedKernel(*lender, v11,
                                       {{"T", DataType::kFloat}, {"Tind", DataType::kInt32}})),
            3);
  // The default domain however the node writes it.
  onnx::NodeProto spelled = Node("ai.onnx", "Gather");
  KernelInfo named(spelled, 11, {DataType::kFloat, DataType::kInt64});
  EXPECT_EQ(TagOf(CreateBorrowedKernel(*lender, named,
                                       {{"T", DataType::kFloat}, {"Tind", DataType::kInt64}})),
            2);
}

TEST(BorrowedKernelTest, AnUnknownTypeIsNotChecked) {
  auto lender = Lender();
  ASSERT_NE(lender, nullptr);
  onnx::NodeProto node = Node("", "Gather");
  KernelInfo info(node, 1, {DataType::kFloat, DataType::kUndefined});
  EXPECT_EQ(TagOf(CreateBorrowedKernel(*lender, info,
                                       {{"T", DataType::kFloat}, {"Tind", DataType::kUndefined}})),
            1);
}

TEST(BorrowedKernelTest, RefusesNamingTheLenderWhenItHasNoSuchKernel) {
  auto lender = Lender();
  ASSERT_NE(lender, nullptr);
  onnx::NodeProto node = Node("", "Gather");
  KernelInfo too_new(node, 14, {DataType::kFloat, DataType::kInt64});
  auto kernel = CreateBorrowedKernel(*lender, too_new, {{"T", DataType::kFloat}});
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(kernel.status().message(), HasSubstr("provider 'lender' lends no kernel"));
  EXPECT_THAT(kernel.status().message(), HasSubstr("Gather-14"));
  onnx::NodeProto other = Node("com.example", "Gather");
  KernelInfo foreign(other, 1, {DataType::kFloat, DataType::kInt64});
  EXPECT_EQ(CreateBorrowedKernel(*lender, foreign, {}).status().code(), StatusCode::kUnimplemented);
}

TEST(BorrowedKernelTest, PassesTheFactorysOwnErrorOn) {
  auto lender = Lender();
  ASSERT_NE(lender, nullptr);
  onnx::NodeProto node = Node("", "Gather");
  onnx::AttributeProto* refuse = node.add_attribute();
  refuse->set_name("refuse");
  refuse->set_type(onnx::AttributeProto::INT);
  refuse->set_i(1);
  KernelInfo info(node, 1, {DataType::kFloat, DataType::kInt64});
  auto kernel = CreateBorrowedKernel(*lender, info, {{"T", DataType::kFloat}});
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(kernel.status().message(), HasSubstr("attribute 'refuse' is set"));
}

}  // namespace
}  // namespace onnxgate
