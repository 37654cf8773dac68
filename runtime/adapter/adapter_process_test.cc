// Adapter processes end with everything they started: a descendant that left the adapter's
// process group with setsid() and keeps its stdout open is ended when the adapter exits (so the
// exit is seen at once), when the runtime is destroyed, and when the process that started the
// adapter dies without cleaning up.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "runtime/adapter/adapter_runtime.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

std::string Scratch(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/onnxgate_adapter_" +
                     std::to_string(getpid()) + "_" + name;
  unlink(path.c_str());
  return path;
}

std::string FaultAdapter(const std::string& fault, const std::string& marker) {
  return "python3 " + std::string(ONNXGATE_FAULT_ADAPTER) + " " + fault + " " + marker;
}

pid_t PidIn(const std::string& path) {
  std::ifstream in(path);
  pid_t pid = -1;
  in >> pid;
  return pid;
}

// Whether `pid` is gone within a generous bound (its subreaper reaps it at once when it is
// killed; the bound only keeps a regression from hanging the test).
bool Gone(pid_t pid) {
  for (int i = 0; i < 1000; ++i) {
    if (kill(pid, 0) != 0) return true;
    usleep(10000);
  }
  return false;
}

TEST(AdapterProcessTest, AnAdapterThatExitsBeforeHelloLeavingAnOrphanIsSeenAtOnce) {
  const std::string marker = Scratch("orphan_at_hello");
  auto runtime = CreateAdapterRuntime(FaultAdapter("orphan_at_hello", marker), {});
  ASSERT_FALSE(runtime.ok());
  EXPECT_THAT(runtime.status().message(), HasSubstr("exited with code 4 before answering hello"));
  const pid_t orphan = PidIn(marker);
  ASSERT_GT(orphan, 0);
  EXPECT_TRUE(Gone(orphan));
  unlink(marker.c_str());
}

TEST(AdapterProcessTest, AnAdapterThatExitsMidRunLeavingAnOrphanIsACrashAtOnce) {
  const std::string marker = Scratch("orphan_on_run");
  auto runtime = CreateAdapterRuntime(FaultAdapter("orphan_on_run", marker), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  LoadOptions options;
  options.providers = {"echo"};
  auto model = (*runtime)->Load("case.onnx", options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  Value x = Value::FromTensor(Tensor::FromVector<float>(Shape({1}), {1.0f}));
  auto out = (*model)->Run({{"X", x}});
  EXPECT_EQ(out.status().code(), StatusCode::kAborted);
  EXPECT_THAT(out.status().message(), HasSubstr("the adapter exited with code 4"));
  EXPECT_TRUE(Gone(PidIn(marker)));
  unlink(marker.c_str());
}

TEST(AdapterProcessTest, AnOrphanEndsWithTheRuntime) {
  const std::string marker = Scratch("orphan_sleeper");
  auto runtime = CreateAdapterRuntime(FaultAdapter("orphan_sleeper", marker), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  const pid_t orphan = PidIn(marker);
  ASSERT_GT(orphan, 0);
  EXPECT_EQ(kill(orphan, 0), 0);
  runtime->reset();
  EXPECT_TRUE(Gone(orphan));
  unlink(marker.c_str());
}

TEST(AdapterProcessTest, AnAdapterAndItsOrphanEndWhenTheirStarterIsKilled) {
  const std::string marker = Scratch("orphan_starter_killed");
  const pid_t starter = fork();
  if (starter == 0) {
    auto runtime = CreateAdapterRuntime(FaultAdapter("orphan_sleeper", marker), {});
    if (!runtime.ok()) _exit(1);
    raise(SIGKILL);  // no destructor runs
  }
  int status = 0;
  ASSERT_EQ(waitpid(starter, &status, 0), starter);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the starter could not create the runtime";
  const pid_t orphan = PidIn(marker);
  ASSERT_GT(orphan, 0);
  EXPECT_TRUE(Gone(orphan));
  unlink(marker.c_str());
}

TEST(AdapterProcessTest, AnAdapterThatLogsMoreThanAPipeHoldsIsDrainedToOurStderr) {
  auto runtime = CreateAdapterRuntime(FaultAdapter("chatty_run", "-"), {});
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  LoadOptions options;
  options.providers = {"echo"};
  auto model = (*runtime)->Load("case.onnx", options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  Value x = Value::FromTensor(Tensor::FromVector<float>(Shape({1}), {1.0f}));
  ::testing::internal::CaptureStderr();
  auto out = (*model)->Run({{"X", x}});  // deadlocks if the log is not read while waiting
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_GT(log.size(), size_t{4000000}) << "4 MiB of whole lines";
  EXPECT_THAT(log, HasSubstr("chatty run done\n"));
  EXPECT_EQ(log.rfind("chatty run done\n"), log.size() - 16) << "all of it, before the reply";
}

}  // namespace
}  // namespace onnxgate
