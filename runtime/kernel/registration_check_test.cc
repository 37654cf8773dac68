// Tests for CheckRegistrationRanges and CheckRegistrationCoverage: a table claiming an op version
// past its checked end fails, naming the op and the versions; closed, well-formed tables pass.
#include "runtime/kernel/registration_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class NoopKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo&) {
    return std::unique_ptr<OpKernel>(new NoopKernel);
  }
  Status Compute(KernelContext&) const override { return OkStatus(); }
};

// ReduceMean-13's types (ReduceMean-18 allows the same ones, so only the range can be wrong).
const std::vector<DataType> kReduceTypes = {DataType::kUint32, DataType::kUint64,  DataType::kInt32,
                                            DataType::kInt64,  DataType::kFloat16, DataType::kFloat,
                                            DataType::kDouble, DataType::kBFloat16};

KernelDef Def(const std::string& op, int since, int until, std::vector<DataType> types) {
  return KernelDef{"", op, since, until, {{"T", std::move(types)}}, FactoryOf<NoopKernel>()};
}

// A table checked against the ONNX 1.12 opsets, as the ref EP's are.
RegistrationCheckOptions CheckedThrough17() {
  RegistrationCheckOptions options;
  options.checked_through[""] = 17;
  return options;
}

Status CheckOne(const KernelDef& def, const RegistrationCheckOptions& options) {
  return CheckRegistrationRanges(std::vector<const KernelDef*>{&def}, options);
}

TEST(RegistrationCheckTest, TheSchemaRegistryKnowsReduceMean18) {
  // The premise of the tests below: axes became an input in ReduceMean-18.
  const std::vector<int> versions = SinceVersions("", "ReduceMean");
  EXPECT_NE(std::find(versions.begin(), versions.end(), 18), versions.end());
}

TEST(RegistrationCheckTest, AnOpenEndedRangeFails) {
  // INT_MAX cannot be registered any more (see below), but a list of defs can still say it.
  const KernelDef open = Def("ReduceMean", 13, INT_MAX, kReduceTypes);
  for (const RegistrationCheckOptions& options : {RegistrationCheckOptions{}, CheckedThrough17()}) {
    Status st = CheckOne(open, options);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(st.message(), AllOf(HasSubstr("ReduceMean 13.." + std::to_string(INT_MAX)),
                                    HasSubstr("ends past its checked semantics")));
  }
  EXPECT_THAT(CheckOne(open, CheckedThrough17()).message(), HasSubstr("claims ReduceMean-18"));
}

TEST(RegistrationCheckTest, ARangeRunningIntoANewerVersionFails) {
  // 13..19 ends at neither a since-version nor right before one.
  Status st = CheckOne(Def("ReduceMean", 13, 19, kReduceTypes), {});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("ReduceMean 13..19: ends past its checked semantics"));
}

TEST(RegistrationCheckTest, ARangePastTheCheckedOpsetFails) {
  // 13..18 is well formed, but claims ReduceMean-18 for a kernel checked through opset 17.
  Status st = CheckOne(Def("ReduceMean", 13, 18, kReduceTypes), CheckedThrough17());
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("ReduceMean 13..18: claims ReduceMean-18, newer than "
                                      "opset 17 the table was checked against"));
}

TEST(RegistrationCheckTest, ARangeClosedAtItsCheckedEndPasses) {
  // Right before ReduceMean-18, or at ReduceMean-13's own since-version: the same claim.
  for (int until : {13, 17}) {
    Status st = CheckOne(Def("ReduceMean", 13, until, kReduceTypes), CheckedThrough17());
    EXPECT_TRUE(st.ok()) << st.message();
  }
  // Abs-13 is the newest Abs: its range closes at 13.
  Status abs = CheckOne(Def("Abs", 13, 13, {DataType::kFloat}), CheckedThrough17());
  EXPECT_TRUE(abs.ok()) << abs.message();
  EXPECT_FALSE(CheckOne(Def("Abs", 13, 17, {DataType::kFloat}), CheckedThrough17()).ok());
}

TEST(RegistrationCheckTest, RangesStartAtASinceVersionAndTypesFollowTheSchema) {
  Status inside = CheckOne(Def("ReduceMean", 12, 12, kReduceTypes), {});
  EXPECT_THAT(inside.message(), HasSubstr("ReduceMean 12..12: starts inside a schema version"));
  // Relu-13 allows no integers.
  Status types = CheckOne(Def("Relu", 13, 13, {DataType::kFloat, DataType::kInt32}), {});
  EXPECT_THAT(types.message(), HasSubstr("Relu 13..13: T=int32 is not allowed by Relu-13"));
  Status unknown = CheckOne(Def("NoSuchOp", 1, 1, {DataType::kFloat}), {});
  EXPECT_THAT(unknown.message(), HasSubstr("NoSuchOp 1..1: ONNX"));
}

TEST(RegistrationCheckTest, EveryViolationIsListed) {
  KernelRegistry r;
  ASSERT_TRUE(r.Register(Def("ReduceMean", 13, 18, kReduceTypes)).ok());
  ASSERT_TRUE(r.Register(Def("Abs", 13, 20, {DataType::kFloat})).ok());
  Status st = CheckRegistrationRanges(r, CheckedThrough17());
  EXPECT_THAT(st.message(), AllOf(HasSubstr("2 registration range violation(s)"),
                                  HasSubstr("ReduceMean 13..18"), HasSubstr("Abs 13..20")));
}

TEST(RegistrationCheckTest, CoverageHasNoGapsWithinTheClaimedSpan) {
  // Abs 1..5 and 13..13 leave Abs-6 uncovered between them.
  const KernelDef a1 = Def("Abs", 1, 5, {DataType::kFloat, DataType::kDouble, DataType::kFloat16});
  const KernelDef a13 = Def("Abs", 13, 13, {DataType::kFloat});
  Status gap = CheckRegistrationCoverage(std::vector<const KernelDef*>{&a1, &a13});
  EXPECT_THAT(gap.message(), HasSubstr("Abs-6: no kernel"));
  // Abs-13 allows more than float.
  EXPECT_THAT(gap.message(), HasSubstr("Abs-13: no kernel for T="));

  // ReduceMean 13..17 with all of 13's types: ReduceMean-18, after the span, is not a gap.
  const KernelDef mean = Def("ReduceMean", 13, 17, kReduceTypes);
  Status st = CheckRegistrationCoverage(std::vector<const KernelDef*>{&mean});
  EXPECT_TRUE(st.ok()) << st.message();

  // An op listed as narrower than its schema is only checked for gaps.
  RegistrationCheckOptions narrower;
  narrower.narrower_than_schema = {"Abs"};
  EXPECT_TRUE(CheckRegistrationCoverage(std::vector<const KernelDef*>{&a13}, narrower).ok());
}

}  // namespace
}  // namespace onnxgate
