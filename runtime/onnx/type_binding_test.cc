// Type-constraint binding against real ONNX schemas.
#include "runtime/onnx/type_binding.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

TEST(TypeBindingTest, BindsInputsAndOutputsToSchemaConstraints) {
  const std::optional<OpSpec> cast = OpSpec::Find("Cast", 13, "");
  ASSERT_TRUE(cast.has_value());
  auto bound = BindTypeConstraints(*cast, {DataType::kFloat}, {DataType::kInt64});
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ(BoundTypesToString(*bound), "T1=float, T2=int64");

  const std::optional<OpSpec> add = OpSpec::Find("Add", 14, "");
  ASSERT_TRUE(add.has_value());
  auto conflict = BindTypeConstraints(*add, {DataType::kFloat, DataType::kDouble}, {});
  EXPECT_EQ(conflict.status().code(), StatusCode::kInvalidArgument);

  // Variadic inputs (Concat's inputs) all bind to the same constraint.
  const std::optional<OpSpec> concat = OpSpec::Find("Concat", 13, "");
  ASSERT_TRUE(concat.has_value());
  auto many =
      BindTypeConstraints(*concat, {DataType::kInt32, DataType::kInt32, DataType::kInt32}, {});
  ASSERT_TRUE(many.ok());
  EXPECT_EQ(many->at("T"), DataType::kInt32);
}

}  // namespace
}  // namespace onnxgate
