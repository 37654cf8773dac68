// The test providers' plugin passes its runtime options through: isolation=case reaches the
// harness's side as a plugin that needs case isolation, and a bad option is create()'s refusal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/ep/testing/test_providers.h"
#include "runtime/plugin/plugin_runtime.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

TEST(TestProvidersPluginTest, IsolationCaseMakesThePluginNeedCaseIsolation) {
  auto plain = LoadPluginRuntime(ONNXGATE_TEST_PROVIDERS_PLUGIN, {});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_FALSE((*plain)->NeedsCaseIsolation());
  auto isolated = LoadPluginRuntime(ONNXGATE_TEST_PROVIDERS_PLUGIN, {{"isolation", "case"}});
  ASSERT_TRUE(isolated.ok()) << isolated.status().ToString();
  EXPECT_TRUE((*isolated)->NeedsCaseIsolation());
  const std::vector<std::string> providers = (*isolated)->providers();
  for (const char* p : {kTestMemoryHogProviderName, kTestCorruptStateProviderName}) {
    EXPECT_NE(std::find(providers.begin(), providers.end(), p), providers.end()) << p;
  }
}

TEST(TestProvidersPluginTest, ABadIsolationValueIsRefusedAtCreate) {
  auto refused = LoadPluginRuntime(ONNXGATE_TEST_PROVIDERS_PLUGIN, {{"isolation", "never"}});
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("got 'never'"));
}

}  // namespace
}  // namespace onnxgate
