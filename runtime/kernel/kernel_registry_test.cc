// Tests for KernelRegistry (overlap refusal, lookup reasons) and type-constraint binding.
#include "runtime/kernel/kernel_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <climits>

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

TEST(KernelRegistryTest, RefusesRangesThatAreNotClosedAtARealOpset) {
  KernelRegistry r;
  Status open = r.Register(Def("ReduceMean", 13, INT_MAX, {DataType::kFloat}));
  EXPECT_EQ(open.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(open.message(), HasSubstr("ReduceMean-13.." + std::to_string(INT_MAX)));
  EXPECT_THAT(open.message(), HasSubstr("no real opset"));
  EXPECT_FALSE(r.Register(Def("Relu", 14, kMaxPlausibleOpset + 1, {DataType::kFloat})).ok());
  // A KernelDef whose until_version was never set has an empty range.
  KernelDef unset;
  unset.op_type = "Relu";
  unset.factory = FactoryOf<NoopKernel>();
  EXPECT_FALSE(r.Register(std::move(unset)).ok());
  EXPECT_TRUE(r.All().empty());
}

TEST(KernelRegistryTest, FindNamesOpVersionAndTypesWhenNothingMatches) {
  KernelRegistry r;
  ASSERT_TRUE(r.Register(Def("Relu", 6, 12, {DataType::kFloat})).ok());
  EXPECT_TRUE(r.Find("", "Relu", 6, {{"T", DataType::kFloat}}).ok());
  auto by_type = r.Find("", "Relu", 6, {{"T", DataType::kFloat16}});
  EXPECT_EQ(by_type.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(by_type.status().message(), HasSubstr("Relu-6 with T=float16"));
  auto by_version = r.Find("", "Relu", 14, {{"T", DataType::kFloat}});
  EXPECT_THAT(by_version.status().message(),
              HasSubstr("no kernel for Relu-14 (kernels: Relu-6..12)"));
  EXPECT_THAT(r.Find("", "Conv", 11, {}).status().message(), HasSubstr("no kernel for Conv-11"));
}

}  // namespace
}  // namespace onnxgate
