// Timed runs through the plugin ABI (1.3): the export helper times the built-in runtime's runs in
// the plugin's process; a table that holds timed_runs is asked, an older one (1.2) never is, and
// a time that is not a number >= 0 is the plugin's fault.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/plugin/plugin_runtime.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// Whether each of 3 timed runs of `model` with `feeds` on `provider` of `plugin` has a time >= 0
// ("t t t"), or the error.
std::string TimedRuns(const std::string& plugin, const std::string& model,
                      const std::string& provider, const std::vector<NamedValue>& feeds) {
  auto runtime = LoadPluginRuntime(plugin, {});
  if (!runtime.ok()) return runtime.status().ToString();
  LoadOptions options;
  options.providers = {provider};
  auto loaded = (*runtime)->Load(model, options);
  if (!loaded.ok()) return loaded.status().ToString();
  auto times = (*loaded)->TimedRuns(feeds, 3);
  if (!times.ok()) return times.status().ToString();
  std::string out;
  for (double t : *times) out += (out.empty() ? "" : " ") + std::string(t >= 0.0 ? "t" : "-");
  return out;
}

std::string HostilePlugin(const std::string& fault) {
  return std::string(ONNXGATE_TEST_PLUGIN_DIR) + "/libonnxgate_hostile_plugin_" + fault + ".so";
}

std::vector<NamedValue> Floats(const std::string& name, Shape shape, std::vector<float> v) {
  return {{name, Value::FromTensor(Tensor::FromVector<float>(std::move(shape), v))}};
}

TEST(PluginTimedRunsTest, TheBuiltinPluginTimesRunsInItsOwnProcess) {
  const std::string add = std::string(ONNXGATE_RUNTIME_TESTDATA_DIR) + "/add.onnxtxt";
  EXPECT_EQ(TimedRuns(ONNXGATE_BUILTIN_PLUGIN, add, "ref",
                      Floats("A", Shape({2, 3}), {1, -10, 0, 1, 1, 1})),
            "t t t");
  const std::string missing = TimedRuns(ONNXGATE_BUILTIN_PLUGIN, add, "ref", {});
  EXPECT_THAT(missing, HasSubstr("INVALID_ARGUMENT"));
  EXPECT_THAT(missing, HasSubstr("timing runs of"));
  EXPECT_THAT(missing, HasSubstr("missing input 'A'"));
}

TEST(PluginTimedRunsTest, TimedRunsAreAskedOnlyOfATableThatHoldsThem) {
  const auto x = Floats("X", Shape({2}), {1, -1});
  EXPECT_EQ(TimedRuns(HostilePlugin("timed_runs"), "a.onnx", "relu-cpu", x), "t t t");
  // Its memory past the 1.2 table holds a timed_runs that crashes: never called.
  EXPECT_THAT(TimedRuns(HostilePlugin("abi_1_2"), "a.onnx", "relu-cpu", x),
              HasSubstr("UNIMPLEMENTED: timed runs are not offered"));
}

TEST(PluginTimedRunsTest, ATimeThatIsNotANumberAtLeastZeroIsThePluginsFault) {
  const std::string negative =
      TimedRuns(HostilePlugin("negative_time"), "a.onnx", "relu-cpu", Floats("X", Shape({1}), {1}));
  EXPECT_THAT(negative, HasSubstr("INTERNAL"));
  EXPECT_THAT(negative, HasSubstr("timing runs of a.onnx: run 1 has no time"));
  EXPECT_THAT(negative, HasSubstr("a fault of the plugin"));
}

}  // namespace
}  // namespace onnxgate
