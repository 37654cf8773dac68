// Tests for KernelRegistry (overlap refusal, lookup reasons) and type-constraint binding.
#include "runtime/kernel/kernel_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include "runtime/kernel/type_binding.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

class NoopKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo&) {
    return std::unique_ptr<OpKernel>(new NoopKernel);
  }
  Status Compute(KernelContext&) const override { return OkStatus(); }
};

KernelDef Def(const std::string& op, int since, int until, std::vector<DataType> types) {
  return KernelDef{"", op, since, until, {{"T", std::move(types)}}, FactoryOf<NoopKernel>()};
}

TEST(KernelRegistryTest, RefusesOverlappingVersionsAndTypes) {
  KernelRegistry r;
  ASSERT_TRUE(r.Register(Def("Relu", 6, 12, {DataType::kFloat})).ok());
  ASSERT_TRUE(r.Register(Def("Relu", 13, 13, {DataType::kFloat})).ok());
  ASSERT_TRUE(r.Register(Def("Relu", 6, 12, {DataType::kDouble})).ok());
  Status st = r.Register(Def("Relu", 12, 14, {DataType::kFloat, DataType::kInt8}));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("overlaps"));
  EXPECT_EQ(r.All().size(), 3u);
}

TEST(KernelRegistryTest, FindNamesOpVersionAndTypesWhenNothingMatches) {
  KernelRegistry r;
  ASSERT_TRUE(r.Register(Def("Relu", 6, 12, {DataType::kFloat})).ok());
  EXPECT_TRUE(r.Find("", "Relu", 6, {{"T", DataType::kFloat}}).ok());
  auto by_type = r.Find("", "Relu", 6, {{"T", DataType::kFloat16}});
  EXPECT_EQ(by_type.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(by_type.status().message(), HasSubstr("Relu-6 with T=float16"));
  auto by_version = r.Find("", "Relu", 14, {{"T", DataType::kFloat}});
  EXPECT_THAT(by_version.status().message(), HasSubstr("no kernel for Relu-14 (kernels: Relu-6..12)"));
  EXPECT_THAT(r.Find("", "Conv", 11, {}).status().message(), HasSubstr("no kernel for Conv-11"));
}

TEST(TypeBindingTest, BindsInputsAndOutputsToSchemaConstraints) {
  const onnx::OpSchema* cast = onnx::OpSchemaRegistry::Schema("Cast", 13, "");
  ASSERT_NE(cast, nullptr);
  auto bound = BindTypeConstraints(*cast, {DataType::kFloat}, {DataType::kInt64});
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ(BoundTypesToString(*bound), "T1=float, T2=int64");

  const onnx::OpSchema* add = onnx::OpSchemaRegistry::Schema("Add", 14, "");
  auto conflict = BindTypeConstraints(*add, {DataType::kFloat, DataType::kDouble}, {});
  EXPECT_EQ(conflict.status().code(), StatusCode::kInvalidArgument);

  // Variadic inputs (Concat's inputs) all bind to the same constraint.
  const onnx::OpSchema* concat = onnx::OpSchemaRegistry::Schema("Concat", 13, "");
  auto many = BindTypeConstraints(*concat, {DataType::kInt32, DataType::kInt32, DataType::kInt32}, {});
  ASSERT_TRUE(many.ok());
  EXPECT_EQ(many->at("T"), DataType::kInt32);
}

}  // namespace
}  // namespace onnxgate
