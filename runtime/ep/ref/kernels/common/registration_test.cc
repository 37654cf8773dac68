// Checks the ref EP's registration tables against ONNX's schema registry with
// CheckRegistrationRanges and CheckRegistrationCoverage: every version range starts at a schema
// version and is closed where the kernel's checked semantics end (no claim past the opset the
// table was checked against), every declared type is allowed by each version it claims, and
// within each op's claimed span every schema version is covered with all of its types.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"
#include "runtime/kernel/registration_check.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate::ref {
namespace {

RegistrationCheckOptions RefOptions() {
  RegistrationCheckOptions options;
  options.checked_through = {{"", table::kCheckedThroughOpset},
                             {"ai.onnx.preview.training", table::kCheckedThroughTrainingOpset},
                             {"ai.onnx.ml", table::kCheckedThroughMlOpset},
                             {"ai.onnx.preview", table::kCheckedThroughPreviewOpset}};
  // No ref kernel claims fewer types than its schema allows (options.narrower_than_schema stays
  // empty): every type of every claimed version is served.
  return options;
}

class RegistrationTest : public ::testing::TestWithParam<RefKernelFamily> {
 protected:
  KernelRegistry registry_ = RegistryOf(GetParam().register_kernels);
};

TEST_P(RegistrationTest, RangesAndTypesFollowTheSchemas) {
  Status st = CheckRegistrationRanges(registry_, RefOptions());
  EXPECT_TRUE(st.ok()) << st.message();
}

// Newer versions than any kernel claims are not checked here: the `ops` command reports them
// as lacking. Inside an op's claimed span there may be no gap.
TEST_P(RegistrationTest, EverySchemaVersionIsCoveredWithAllItsTypes) {
  Status st = CheckRegistrationCoverage(registry_, RefOptions());
  EXPECT_TRUE(st.ok()) << st.message();
}

// The family whose table must hold `spec`'s op: the folder of onnx/defs/ that defines it, but
// the signal ops (defined among the math ops) have their own family, ai.onnx.ml's folder
// traditionalml is called ml, and ai.onnx.preview's ops sit with their relatives in nn.
std::string FamilyOf(const OpSpec& spec) {
  static const std::set<std::string> signal = {
      "DFT", "STFT", "HannWindow", "HammingWindow", "BlackmanWindow", "MelWeightMatrix"};
  const std::string file = spec.defining_file();
  const std::string prefix = "onnx/defs/";
  const size_t start = file.find(prefix);
  if (start == std::string::npos) return "(" + file + ")";
  const size_t from = start + prefix.size();
  const std::string folder = file.substr(from, file.find('/', from) - from);
  if (folder == "math" && signal.count(spec.op_type()) > 0) return "signal";
  if (folder == "traditionalml") return "ml";
  if (folder == "preview") return "nn";
  return folder;
}

TEST_P(RegistrationTest, HoldsOnlyOpsOfItsOnnxFamily) {
  for (const KernelDef* def : registry_.All()) {
    const std::optional<OpSpec> spec = OpSpec::Find(def->op_type, def->since_version, def->domain);
    ASSERT_TRUE(spec.has_value()) << def->op_type;
    EXPECT_EQ(FamilyOf(*spec), GetParam().name)
        << def->op_type << "-" << def->since_version << " (" << spec->defining_file() << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Families, RegistrationTest, ::testing::ValuesIn(RefKernelFamilies()),
                         [](const ::testing::TestParamInfo<RefKernelFamily>& info) {
                           return std::string(info.param.name);
                         });

// Every family together, as the ref provider registers them: the families do not overlap, and
// no range is left open (Register refuses one).
TEST(RefRegistrationTest, AllFamiliesRegisterTogether) {
  KernelRegistry registry;
  Status st = RegisterRefKernels(registry);
  ASSERT_TRUE(st.ok()) << st.message();
  for (const KernelDef* def : registry.All()) {
    EXPECT_LE(def->until_version, MaxOpset(def->domain)) << def->op_type;
  }
}

}  // namespace
}  // namespace onnxgate::ref
