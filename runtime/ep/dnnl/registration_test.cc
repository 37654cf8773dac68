// Checks the dnnl EP's registration table against ONNX's schema registry: every range starts at
// a schema version and is closed where its kernel's checked semantics end, no claim reaches past
// the opset the table was checked against, and no claimed op has a gap between its versions.
// Every dnnl kernel takes float32 alone, so every op is listed as narrower than its schema: the
// other types are declined and run on the next provider.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/dnnl/dnnl_kernels.h"
#include "runtime/kernel/registration_check.h"

namespace onnxgate::dnnl_ep {
namespace {

KernelRegistry DnnlRegistry() {
  auto context = DnnlContext::Create();
  EXPECT_TRUE(context.ok()) << context.status().ToString();
  KernelRegistry registry;
  auto ref = BuiltinRefProvider();
  EXPECT_TRUE(ref.ok()) << ref.status().ToString();
  Status st = ref.ok() ? RegisterDnnlKernels(registry, *context, *ref) : ref.status();
  EXPECT_TRUE(st.ok()) << st.ToString();
  return registry;
}

RegistrationCheckOptions DnnlOptions(const KernelRegistry& registry) {
  RegistrationCheckOptions options;
  options.checked_through = {{"", kCheckedThroughOpset}};
  for (const KernelDef* def : registry.All()) options.narrower_than_schema.insert(def->op_type);
  return options;
}

TEST(DnnlRegistrationTest, RangesAndTypesFollowTheSchemas) {
  const KernelRegistry registry = DnnlRegistry();
  Status st = CheckRegistrationRanges(registry, DnnlOptions(registry));
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(DnnlRegistrationTest, NoClaimedOpHasAGapBetweenItsVersions) {
  const KernelRegistry registry = DnnlRegistry();
  Status st = CheckRegistrationCoverage(registry, DnnlOptions(registry));
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(DnnlRegistrationTest, ClaimsFloat32AloneAndTheOpsOfItsFirstSlice) {
  const KernelRegistry registry = DnnlRegistry();
  std::set<std::string> ops;
  for (const KernelDef* def : registry.All()) {
    ops.insert(def->op_type);
    ASSERT_FALSE(def->type_constraints.empty()) << def->op_type;
    // Identity names its constraint V from version 14 (it adds sequences there).
    const bool v = def->op_type == "Identity" && def->since_version >= 14;
    EXPECT_EQ(def->type_constraints[0].name, v ? "V" : "T") << def->op_type;
    EXPECT_THAT(def->type_constraints[0].types, ::testing::ElementsAre(DataType::kFloat))
        << def->op_type;
  }
  EXPECT_THAT(ops, ::testing::IsSupersetOf({"Relu", "Sigmoid", "Tanh", "Add", "Sub", "Mul", "Div",
                                            "MatMul", "Gemm", "Softmax", "LogSoftmax", "Conv",
                                            "MaxPool", "AveragePool", "GlobalAveragePool"}));
}

// A claim past what the table was checked through is refused by the check itself.
TEST(DnnlRegistrationTest, AClaimOfAnUncheckedVersionIsRefused) {
  const KernelRegistry registry = DnnlRegistry();
  RegistrationCheckOptions options = DnnlOptions(registry);
  options.checked_through[""] = 13;  // Conv-22, Elu-22, ... were checked after 13
  Status st = CheckRegistrationRanges(registry, options);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(st.message(), ::testing::HasSubstr("Conv"));
}

}  // namespace
}  // namespace onnxgate::dnnl_ep
