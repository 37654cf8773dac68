// ParseEpTarget: one provider or a '+'-joined priority list, the label kept as given, and errors
// naming what is wrong; CheckTargetOffered names the provider a runtime does not offer.
#include "harness/ep_target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/mock_runtime.h"

namespace onnxgate {
namespace {

using ::testing::_;
using ::testing::HasSubstr;
using ::testing::NiceMock;
using ::testing::Return;

TEST(EpTargetTest, OneProviderIsATargetOfItsOwn) {
  StatusOr<EpTarget> t = ParseEpTarget("dnnl");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->label, "dnnl");
  EXPECT_EQ(t->providers, std::vector<std::string>{"dnnl"});
  EXPECT_EQ(t->first(), "dnnl");
}

TEST(EpTargetTest, APlusJoinedListKeepsItsOrderAndItsLabel) {
  StatusOr<EpTarget> t = ParseEpTarget("OpenVINOExecutionProvider+CPUExecutionProvider");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->label, "OpenVINOExecutionProvider+CPUExecutionProvider");
  EXPECT_EQ(t->providers,
            (std::vector<std::string>{"OpenVINOExecutionProvider", "CPUExecutionProvider"}));
  EXPECT_EQ(ProvidersOf("a+b+c"), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(EpTargetTest, AnEmptyPartIsNamedByItsPosition) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"a++b", "--ep 'a++b': part 2 of 3 is empty"},
      {"+a", "--ep '+a': part 1 of 2 is empty"},
      {"a+", "--ep 'a+': part 2 of 2 is empty"},
      {"", "--ep is empty"}};
  for (const auto& [text, says] : bad) {
    StatusOr<EpTarget> t = ParseEpTarget(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(t.status().message(), HasSubstr(says));
  }
}

TEST(EpTargetTest, ARepeatedOrUnsafeProviderIsRefused) {
  EXPECT_THAT(ParseEpTarget("a+b+a").status().message(), HasSubstr("names provider 'a' twice"));
  EXPECT_THAT(ParseEpTarget("a+../x").status().message(), HasSubstr("EP name '../x'"));
  EXPECT_THAT(ParseEpTarget("a+-b").status().message(), HasSubstr("EP name '-b'"));
  // A label refused by the parser still reaches the runtime, whole, to be named there.
  EXPECT_EQ(ProvidersOf("a++b"), std::vector<std::string>{"a++b"});
}

TEST(EpTargetTest, EveryProviderOfTheListMustBeOffered) {
  NiceMock<MockRuntime> runtime;
  ON_CALL(runtime, providers()).WillByDefault(Return(std::vector<std::string>{"ref", "dnnl"}));
  ON_CALL(runtime, Claims(_)).WillByDefault([](const std::string& provider) {
    return provider == "hidden" ? StatusOr<std::vector<OpClaim>>(std::vector<OpClaim>{})
                                : StatusOr<std::vector<OpClaim>>(NotFound("no " + provider));
  });
  EXPECT_TRUE(CheckTargetOffered(runtime, *ParseEpTarget("dnnl+ref")).ok());
  EXPECT_TRUE(CheckTargetOffered(runtime, *ParseEpTarget("hidden+ref")).ok());
  Status st = CheckTargetOffered(runtime, *ParseEpTarget("dnnl+opencl"));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "unknown EP 'opencl' in --ep 'dnnl+opencl' (this runtime offers: ref, dnnl)");
  EXPECT_EQ(CheckTargetOffered(runtime, *ParseEpTarget("cuda")).message(),
            "unknown EP 'cuda' (this runtime offers: ref, dnnl)");
}

}  // namespace
}  // namespace onnxgate
