// --runtime into a runtime: the forms a spec may take, runtime options, and a plugin whose code
// ends or crashes its probe, which is an error for the command to report (exit 2), never the end of
// the process that asked.
#include "harness/runtime_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

std::string HostilePlugin(const std::string& fault) {
  return std::string(ONNXGATE_TEST_PLUGIN_DIR) + "/libonnxgate_hostile_plugin_" + fault + ".so";
}

std::string CreateError(const std::string& spec) {
  auto runtime = CreateRuntime(spec, {}, "/nonexistent-root");
  EXPECT_FALSE(runtime.ok()) << spec;
  return runtime.status().message();
}

TEST(RuntimeFactoryTest, SpecsOfNoKnownFormAreRefused) {
  EXPECT_THAT(CreateError("plugin:"), HasSubstr("needs a path: plugin:<file.so>"));
  EXPECT_THAT(CreateError("adapter: "), HasSubstr("needs a command"));
  EXPECT_THAT(CreateError("x:y"), HasSubstr("unknown runtime 'x:y'"));
  EXPECT_THAT(CreateError("plugin:/nonexistent/p.so"), HasSubstr("no such file"));
}

TEST(RuntimeFactoryTest, APluginThatExitsOrCrashesWhenOpenedIsAnError) {
  EXPECT_THAT(CreateError("plugin:" + HostilePlugin("open_exit0")),
              HasSubstr("plugin " + HostilePlugin("open_exit0") +
                        ": probe exited with code 0 before answering"));
  EXPECT_THAT(CreateError("plugin:" + HostilePlugin("create_segv")),
              HasSubstr("probe killed by SIGSEGV"));
  RuntimeLimits limits = RuntimeLimitsFor(0.5);  // a probe waits whole seconds, at least 1
  auto hung = CreateRuntime("plugin:" + HostilePlugin("create_hang"), {}, "/", limits);
  EXPECT_THAT(hung.status().message(), HasSubstr("probe timed out after 1 s"));
}

TEST(RuntimeFactoryTest, AWellBehavedPluginIsCreated) {
  auto runtime = CreateRuntime("plugin:" + HostilePlugin("open_log"), {}, "/");
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  EXPECT_EQ((*runtime)->name(), "relu-plugin");
  auto refused = CreateRuntime("plugin:" + HostilePlugin("open_log"), {{"k", "v"}}, "/");
  EXPECT_THAT(refused.status().message(), HasSubstr("relu-plugin takes no options"));
}

TEST(RuntimeFactoryTest, RuntimeOptionsAreKeyValuePairsGivenOnce) {
  auto options = ParseRuntimeOptions({"a=1", "b=x=y"});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->at("b"), "x=y");
  EXPECT_THAT(ParseRuntimeOptions({"novalue"}).status().message(), HasSubstr("is not key=value"));
  EXPECT_THAT(ParseRuntimeOptions({"a=1", "a=2"}).status().message(), HasSubstr("given twice"));
}

}  // namespace
}  // namespace onnxgate
