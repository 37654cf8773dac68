// A runtime through the plugin ABI: the built-in runtime as a plugin answers exactly as the
// built-in runtime does, and each way a plugin can misbehave is one clear error naming the
// plugin's file and the fault.
#include "runtime/plugin/plugin_runtime.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/builtin/builtin_runtime.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string TestPlugin(const std::string& fault) {
  return std::string(ONNXGATE_TEST_PLUGIN_DIR) + "/libonnxgate_test_plugin_" + fault + ".so";
}

std::string Testdata(const std::string& name) {
  return std::string(ONNXGATE_RUNTIME_TESTDATA_DIR) + "/" + name;
}

LoadOptions OnProvider(const std::string& provider) {
  LoadOptions options;
  options.providers = {provider};
  return options;
}

Value Floats(Shape shape, std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>(std::move(shape), v));
}

TEST(PluginRuntimeTest, TheBuiltinRuntimeAsAPluginAnswersAsItself) {
  auto plugin = LoadPluginRuntime(ONNXGATE_BUILTIN_PLUGIN, {});
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  auto builtin = CreateBuiltinRuntime();
  EXPECT_EQ((*plugin)->name(), builtin->name());
  EXPECT_EQ((*plugin)->version(), builtin->version());
  EXPECT_EQ((*plugin)->providers(), builtin->providers());
  EXPECT_EQ((*plugin)->NeedsCaseIsolation(), builtin->NeedsCaseIsolation());
  EXPECT_EQ((*plugin)->accepted_versions().ir.max, builtin->accepted_versions().ir.max);
  EXPECT_EQ((*plugin)->accepted_versions().opsets.size(),
            builtin->accepted_versions().opsets.size());
  auto plugin_claims = (*plugin)->Claims("ref");
  auto builtin_claims = builtin->Claims("ref");
  ASSERT_TRUE(plugin_claims.ok()) << plugin_claims.status().ToString();
  ASSERT_EQ(plugin_claims->size(), builtin_claims->size());
  for (size_t i = 0; i < plugin_claims->size(); ++i) {
    const OpClaim& a = (*plugin_claims)[i];
    const OpClaim& b = (*builtin_claims)[i];
    EXPECT_EQ(a.op_type, b.op_type);
    EXPECT_EQ(a.until_version, b.until_version);
    ASSERT_EQ(a.type_constraints.size(), b.type_constraints.size()) << a.op_type;
    for (size_t c = 0; c < a.type_constraints.size(); ++c) {
      EXPECT_EQ(a.type_constraints[c].types, b.type_constraints[c].types) << a.op_type;
    }
  }
  EXPECT_EQ((*plugin)->MaxIntraOpThreads("ref").value(), 1);
  EXPECT_THAT((*plugin)->Claims("gpu").status().message(),
              HasSubstr("unknown execution provider 'gpu'"));

  auto model = (*plugin)->Load(Testdata("add.onnxtxt"), OnProvider("ref"));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_THAT((*model)->input_names(), ElementsAre("A"));
  EXPECT_EQ((*model)->inputs()[0].dims[1].size, 3);
  auto out = (*model)->Run({{"A", Floats({2, 3}, {1, -10, 0, 1, 1, 1})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[2,3] {2, 0, 3, 2, 3, 4}");
  auto placements = (*model)->placements();
  ASSERT_EQ(placements.size(), 2u);
  EXPECT_EQ(placements[1].op_type, "Relu");
  EXPECT_EQ(placements[1].provider, "ref");

  // Errors keep their code across the ABI: a bad feed is InvalidArgument with its message.
  auto missing = (*model)->Run({});
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(missing.status().message(), HasSubstr("missing input 'A'"));
  EXPECT_THAT(missing.status().message(), HasSubstr(ONNXGATE_BUILTIN_PLUGIN));
  auto options = LoadPluginRuntime(ONNXGATE_BUILTIN_PLUGIN, {{"arena", "off"}});
  EXPECT_THAT(options.status().message(), HasSubstr("takes no runtime options; got 'arena'"));
}

TEST(PluginRuntimeTest, AWellBehavedPluginWrittenAgainstTheHeaderAloneRuns) {
  auto plugin = LoadPluginRuntime(TestPlugin("none"), {});
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  EXPECT_EQ((*plugin)->name(), "relu-plugin");
  EXPECT_EQ((*plugin)->version(), "1.0-test");
  EXPECT_EQ((*plugin)->accepted_versions().opsets.at("").max, 28);
  auto model = (*plugin)->Load("any.onnx", OnProvider("relu-cpu"));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->inputs()[0].dims[0].symbol, "N");
  auto out = (*model)->Run({{"X", Floats({3}, {-1, 0, 2})}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[3] {0, 0, 2}");
  EXPECT_EQ((*plugin)->Load("any.onnx", OnProvider("gpu")).status().code(), StatusCode::kNotFound);
}

std::string LoadError(const std::string& path) {
  auto plugin = LoadPluginRuntime(path, {});
  EXPECT_FALSE(plugin.ok());
  return plugin.status().message();
}

TEST(PluginRuntimeTest, WhatIsNotAPluginIsRefusedByName) {
  EXPECT_THAT(LoadError("/nonexistent/plugin.so"),
              HasSubstr("plugin /nonexistent/plugin.so: no such file"));
  EXPECT_THAT(LoadError(TestPlugin("no_entry_point")),
              HasSubstr("not a plugin: it does not export onnxgate_plugin_api()"));
  EXPECT_THAT(LoadError(TestPlugin("wrong_abi")),
              HasSubstr("is built for plugin ABI version 999; this build loads version 1 only"));
  EXPECT_THAT(LoadError(Testdata("add.onnxtxt")),
              HasSubstr("cannot be loaded as a shared library"));
}

std::string RunError(const std::string& fault) {
  auto plugin = LoadPluginRuntime(TestPlugin(fault), {});
  EXPECT_TRUE(plugin.ok()) << plugin.status().ToString();
  if (!plugin.ok()) return "";
  auto model = (*plugin)->Load("case.onnx", OnProvider("relu-cpu"));
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  if (!model.ok()) return "";
  auto out = (*model)->Run({{"X", Floats({2}, {-1, 2})}});
  EXPECT_FALSE(out.ok());
  const std::string message = out.status().message();
  EXPECT_THAT(message, HasSubstr("plugin " + TestPlugin(fault)));
  EXPECT_THAT(message, HasSubstr("running case.onnx"));
  return message;
}

TEST(PluginRuntimeTest, WhatAPluginReturnsWrongIsOneClearError) {
  EXPECT_THAT(RunError("output_count"), HasSubstr("returned 2 outputs; the model has 1"));
  EXPECT_THAT(RunError("null_buffer"), HasSubstr("output 'Y': null data for float[2]"));
  EXPECT_THAT(RunError("mis_sized"), HasSubstr("output 'Y': data_bytes is 4 for float[2]"));
  EXPECT_THAT(RunError("undeclared_type"),
              HasSubstr("output 'Y' is of element type int32 but the plugin declares float"));
  EXPECT_THAT(RunError("no_message"),
              HasSubstr("failed with status code 6 and no message (a fault of the plugin)"));
}

}  // namespace
}  // namespace onnxgate
