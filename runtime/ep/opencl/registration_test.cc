// Checks the opencl EP's registration table against ONNX's schema registry: every range starts at
// a schema version and is closed where its kernel's checked semantics end, no claim reaches past
// the opset the table was checked against, and no claimed op has a gap between its versions.
// Every opencl kernel takes float32 alone, so every op is listed as narrower than its schema: the
// other types are declined and run on the next provider. Registration needs no device: a context
// is only created where one is present.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "runtime/ep/opencl/opencl_kernels.h"
#include "runtime/kernel/registration_check.h"

namespace onnxgate::opencl_ep {
namespace {

KernelRegistry OpenClRegistry() {
  // The factories only capture the context; a null one is never called here.
  KernelRegistry registry;
  Status st = RegisterOpenClKernels(registry, nullptr);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return registry;
}

RegistrationCheckOptions OpenClOptions(const KernelRegistry& registry) {
  RegistrationCheckOptions options;
  options.checked_through = {{"", kCheckedThroughOpset}};
  for (const KernelDef* def : registry.All()) options.narrower_than_schema.insert(def->op_type);
  return options;
}

TEST(OpenClRegistrationTest, RangesAndTypesFollowTheSchemas) {
  const KernelRegistry registry = OpenClRegistry();
  Status st = CheckRegistrationRanges(registry, OpenClOptions(registry));
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(OpenClRegistrationTest, NoClaimedOpHasAGapBetweenItsVersions) {
  const KernelRegistry registry = OpenClRegistry();
  Status st = CheckRegistrationCoverage(registry, OpenClOptions(registry));
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(OpenClRegistrationTest, ClaimsFloat32AloneAndTheOpsOfItsFirstSlice) {
  const KernelRegistry registry = OpenClRegistry();
  std::set<std::string> ops;
  for (const KernelDef* def : registry.All()) {
    ops.insert(def->op_type);
    ASSERT_EQ(def->type_constraints.size(), 1u) << def->op_type;
    EXPECT_EQ(def->type_constraints[0].name, "T") << def->op_type;
    EXPECT_THAT(def->type_constraints[0].types, ::testing::ElementsAre(DataType::kFloat))
        << def->op_type;
  }
  EXPECT_THAT(ops, ::testing::IsSupersetOf(
                       {"Relu",      "LeakyRelu", "Sigmoid", "Tanh",    "Exp",       "Log",
                        "Sqrt",      "Abs",       "Neg",     "Add",     "Sub",       "Mul",
                        "Div",       "MatMul",    "Gemm",    "Softmax", "ReduceSum", "ReduceMean",
                        "Transpose", "Concat",    "Reshape", "Flatten"}));
}

// A claim past what the table was checked through is refused by the check itself.
TEST(OpenClRegistrationTest, AClaimOfAnUncheckedVersionIsRefused) {
  const KernelRegistry registry = OpenClRegistry();
  RegistrationCheckOptions options = OpenClOptions(registry);
  options.checked_through[""] = 13;  // Relu-14, LeakyRelu-16 and Add-14 were checked after 13
  Status st = CheckRegistrationRanges(registry, options);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(st.message(), ::testing::HasSubstr("LeakyRelu"));
}

}  // namespace
}  // namespace onnxgate::opencl_ep
