// The process holding a plugin runtime never runs the plugin's code: its facts come from a probe
// process, and a plugin that exits, crashes, hangs or lists nonsense while it is opened or created
// is one clear error naming its file and what happened, with this process alive.
#include "runtime/plugin/plugin_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/plugin/plugin_runtime.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string HostilePlugin(const std::string& fault) {
  return std::string(ONNXGATE_TEST_PLUGIN_DIR) + "/libonnxgate_hostile_plugin_" + fault + ".so";
}

std::string ProbeError(const std::string& fault, int timeout_seconds = 10) {
  PluginProbeLimits limits;
  limits.timeout_seconds = timeout_seconds;
  auto runtime = LoadPluginRuntime(HostilePlugin(fault), {}, limits);
  EXPECT_FALSE(runtime.ok()) << fault;
  const std::string message = runtime.status().message();
  EXPECT_THAT(message, HasSubstr("plugin " + HostilePlugin(fault) + ": ")) << fault;
  return message;
}

TEST(PluginProbeTest, APluginThatEndsItsProbeIsAnErrorNotAnExit) {
  EXPECT_THAT(ProbeError("open_exit0"), HasSubstr("probe exited with code 0 before answering"));
  EXPECT_THAT(ProbeError("open_exit1"), HasSubstr("probe exited with code 1 before answering"));
  EXPECT_THAT(ProbeError("create_exit0"), HasSubstr("probe exited with code 0 before answering"));
  EXPECT_THAT(ProbeError("open_segv"), HasSubstr("probe killed by SIGSEGV"));
  EXPECT_THAT(ProbeError("open_abort"), HasSubstr("probe killed by SIGABRT"));
  EXPECT_THAT(ProbeError("create_segv"), HasSubstr("probe killed by SIGSEGV"));
  EXPECT_THAT(ProbeError("create_hang", /*timeout_seconds=*/1),
              HasSubstr("probe timed out after 1 s"));
}

TEST(PluginProbeTest, CountsNamesAndStringsPastTheirLimitsAreRefused) {
  EXPECT_THAT(ProbeError("huge_provider_count"),
              HasSubstr("providers() gave 1099511627776 entries (at most 256)"));
  EXPECT_THAT(ProbeError("climbing_provider"),
              HasSubstr("provider name '../../../../pwned-baseline' must not "
                        "start with '.'"));
  EXPECT_THAT(ProbeError("endless_version"), HasSubstr("version() is longer than 4096 bytes"));
  // A provider's claims are asked in the probe too; their faults stay that provider's.
  PluginProbeLimits limits;
  for (const char* fault : {"huge_claim_count", "inverted_claim"}) {
    auto runtime = LoadPluginRuntime(HostilePlugin(fault), {}, limits);
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    const std::string message = (*runtime)->Claims("relu-cpu").status().message();
    EXPECT_THAT(message, HasSubstr("plugin " + HostilePlugin(fault)));
    EXPECT_THAT(message, HasSubstr(std::string(fault) == "huge_claim_count"
                                       ? "gave 1099511627776 entries (at most 65536)"
                                       : "Relu claims versions 14 to 1"));
    EXPECT_EQ((*runtime)->MaxIntraOpThreads("relu-cpu").value(), 1);
  }
}

class OpenLog {
 public:
  OpenLog()
      : path_(std::filesystem::temp_directory_path() /
              ("onnxgate_plugin_open_log_" + std::to_string(getpid()))) {
    std::filesystem::remove(path_);
    setenv("ONNXGATE_TEST_PLUGIN_OPEN_LOG", path_.c_str(), 1);
  }
  ~OpenLog() {
    unsetenv("ONNXGATE_TEST_PLUGIN_OPEN_LOG");
    std::filesystem::remove(path_);
  }
  // The pids that opened the plugin, one per opening.
  std::vector<pid_t> Pids() const {
    std::ifstream in(path_);
    std::vector<pid_t> pids;
    for (pid_t pid; in >> pid;) pids.push_back(pid);
    return pids;
  }

 private:
  std::filesystem::path path_;
};

TEST(PluginProbeTest, FactsComeFromAProbeAndModelsFromThePluginOpenedWhereTheyLoad) {
  OpenLog log;
  auto runtime = LoadPluginRuntime(HostilePlugin("open_log"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  EXPECT_EQ((*runtime)->name(), "relu-plugin");
  EXPECT_EQ((*runtime)->providers(), std::vector<std::string>{"relu-cpu"});
  EXPECT_EQ((*runtime)->accepted_versions().opsets.at("").max, 28);
  ASSERT_TRUE((*runtime)->Claims("relu-cpu").ok());
  EXPECT_EQ((*runtime)->Claims("relu-cpu")->at(0).op_type, "Relu");
  // A provider it does not list is asked of a probe of its own, once.
  EXPECT_EQ((*runtime)->Claims("gpu").status().code(), StatusCode::kNotFound);
  EXPECT_EQ((*runtime)->Claims("gpu").status().code(), StatusCode::kNotFound);
  EXPECT_THAT((*runtime)->Claims("../up").status().message(), HasSubstr("provider name"));
  std::vector<pid_t> pids = log.Pids();
  ASSERT_EQ(pids.size(), 2u) << "one probe for the facts, one for 'gpu'";
  for (pid_t pid : pids) EXPECT_NE(pid, getpid());

  // Loading a model opens the plugin in the process that loads (here, this one), once.
  LoadOptions options;
  options.providers = {"relu-cpu"};
  ASSERT_TRUE((*runtime)->Load("a.onnx", options).ok());
  ASSERT_TRUE((*runtime)->Load("b.onnx", options).ok());
  pids = log.Pids();
  ASSERT_EQ(pids.size(), 3u);
  EXPECT_EQ(pids[2], getpid());
  // Once open here, an unlisted provider is asked of the plugin itself.
  EXPECT_EQ((*runtime)->Claims("tpu").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(log.Pids().size(), 3u);
}

// ABI 1.1: a provider's availability comes from the probe, and a placement's subgraph from the
// plugin where the model loads.
TEST(PluginProbeTest, AnUnavailableProviderIsUnavailableWithThePluginsReason) {
  auto runtime = LoadPluginRuntime(HostilePlugin("unavailable_provider"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  const Status relu = (*runtime)->ProviderAvailability("relu-cpu");
  EXPECT_EQ(relu.code(), StatusCode::kUnavailable);
  EXPECT_EQ(relu.message(), "no relu device: test");
  EXPECT_TRUE((*runtime)->ProviderAvailability("gpu").ok());  // unknown: Load says so
  LoadOptions options;
  options.providers = {"relu-cpu"};
  auto model = (*runtime)->Load("a.onnx", options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ((*model)->placements().size(), 1u);
  EXPECT_EQ((*model)->placements()[0].subgraph, "relu+fused");
}

TEST(PluginProbeTest, AnAvailabilityReasonThatIsNotUtf8IsThePluginsFault) {
  auto runtime = LoadPluginRuntime(HostilePlugin("garbled_reason"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  const Status relu = (*runtime)->ProviderAvailability("relu-cpu");
  EXPECT_EQ(relu.code(), StatusCode::kInternal);
  EXPECT_THAT(relu.message(), HasSubstr("plugin " + HostilePlugin("garbled_reason") +
                                        ": provider_availability of provider 'relu-cpu': the "
                                        "reason is not valid UTF-8"));
}

TEST(PluginProbeTest, AnAbi10PluginLoadsWithItsProvidersAvailableAndNoSubgraphs) {
  auto runtime = LoadPluginRuntime(HostilePlugin("abi_1_0"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  EXPECT_TRUE((*runtime)->ProviderAvailability("relu-cpu").ok());
  EXPECT_FALSE((*runtime)->NeedsCaseIsolation());
  LoadOptions options;
  options.providers = {"relu-cpu"};
  auto model = (*runtime)->Load("a.onnx", options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ((*model)->placements().size(), 1u);
  EXPECT_EQ((*model)->placements()[0].subgraph, "");
}

// ABI 1.2: whether the runtime's cases need a process each comes from the probe.
TEST(PluginProbeTest, APluginThatNeedsCaseIsolationSaysSo) {
  auto runtime = LoadPluginRuntime(HostilePlugin("case_isolation"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  EXPECT_TRUE((*runtime)->NeedsCaseIsolation());
}

// A table without the member, or with it NULL, says nothing: the cases may share a process.
TEST(PluginProbeTest, AnOlderOrSilentPluginDoesNotNeedCaseIsolation) {
  auto abi_1_1 = LoadPluginRuntime(HostilePlugin("abi_1_1"), {});
  ASSERT_TRUE(abi_1_1.ok()) << abi_1_1.status().ToString();
  EXPECT_FALSE((*abi_1_1)->NeedsCaseIsolation());
  // Its 1.1 members are read.
  EXPECT_EQ((*abi_1_1)->ProviderAvailability("relu-cpu").code(), StatusCode::kUnavailable);
  auto silent = LoadPluginRuntime(HostilePlugin("open_log"), {});
  ASSERT_TRUE(silent.ok()) << silent.status().ToString();
  EXPECT_FALSE((*silent)->NeedsCaseIsolation());
}

TEST(PluginProbeTest, TheProbeRunsUnderTheMemoryLimit) {
  // 1 MiB of address space cannot hold the probe: it dies before answering, and says so.
  PluginProbeLimits limits;
  limits.memory_limit_bytes = size_t{1} << 20;
  auto runtime = LoadPluginRuntime(HostilePlugin("open_log"), {}, limits);
  ASSERT_FALSE(runtime.ok());
  EXPECT_THAT(runtime.status().message(), HasSubstr("plugin " + HostilePlugin("open_log")));
  EXPECT_THAT(runtime.status().message(), Not(HasSubstr("relu-plugin")));
}

}  // namespace
}  // namespace onnxgate
