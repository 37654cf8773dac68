// --runtime into a runtime: the forms a spec may take, runtime options, and a plugin whose code
// ends or crashes its probe, which is an error for the command to report (exit 2), never the end of
// the process that asked.
#include "harness/runtime_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "runtime/base/atomic_file.h"

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

// The error CreateRuntime gives for the name "ort" when the registry holds `registry`.
std::string RegistryError(const std::string& registry) {
  const std::string root = ::testing::TempDir() + "/runtime_factory_registry";
  std::filesystem::create_directories(root + "/adapters");
  EXPECT_TRUE(WriteFileAtomically(root + "/" + kRuntimeRegistryPath, registry).ok());
  auto runtime = CreateRuntime("ort", {}, root);
  EXPECT_FALSE(runtime.ok()) << registry;
  EXPECT_EQ(runtime.status().code(), StatusCode::kInvalidArgument) << runtime.status().ToString();
  EXPECT_THAT(runtime.status().message(), HasSubstr("adapters/runtimes.json: ")) << registry;
  return runtime.status().message();
}

TEST(RuntimeFactoryTest, ABadRegistryIsAnErrorNamingFileAndPath) {
  EXPECT_THAT(RegistryError(R"({"ort": 5})"), HasSubstr("ort: expected an object, got 5"));
  EXPECT_THAT(RegistryError(R"({"ort": {}})"), HasSubstr("ort.adapter: required field is missing"));
  EXPECT_THAT(RegistryError(R"({"ort": {"adapter": ["python"]}})"),
              HasSubstr("ort.adapter: expected a string, got an array"));
  EXPECT_THAT(RegistryError("[1]"), HasSubstr("expected an object, got an array"));
  EXPECT_THAT(RegistryError(std::string(1000, '[') + std::string(1000, ']')),
              HasSubstr("nest deeper than 64"));
  EXPECT_THAT(RegistryError("{\"ort\": {\"adapter\": \"\xff\"}}"), HasSubstr("invalid UTF-8"));
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
