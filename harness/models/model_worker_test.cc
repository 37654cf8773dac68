// Model steps in their worker: values and errors come back unchanged; a step that crashes, hangs
// or allocates past the memory limit is an Aborted error naming the step and what it was doing,
// and this process goes on; --no-isolation runs the step here; the limits are validated.
#include "harness/models/model_worker.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <vector>

#include "harness/worker.h"

namespace onnxgate {
namespace {

ModelWorkerOptions Limits(double timeout_s = 5, int64_t memory_limit_mb = 0) {
  ModelWorkerOptions o;
  o.timeout_s = timeout_s;
  o.memory_limit_mb = memory_limit_mb;
  return o;
}

TEST(ModelWorkerTest, ValuesComeBackFromTheWorker) {
  ModelWorker worker(Limits(), {});
  const pid_t parent = getpid();
  auto groups = worker.RunValues("the step", [parent]() -> StatusOr<ValueGroups> {
    const float forked = getpid() != parent ? 1.0f : 0.0f;
    return ValueGroups{{{"y", Value::FromTensor(Tensor::FromVector<float>(Shape({1}), {forked}))}}};
  });
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  ASSERT_EQ(groups->size(), 1u);
  EXPECT_EQ((*groups)[0][0].name, "y");
  EXPECT_EQ((*groups)[0][0].value.tensor().data<float>()[0], 1.0f);  // it ran in a child
  EXPECT_FALSE(worker.last_step_died());
}

TEST(ModelWorkerTest, TheStepsOwnErrorComesBackUnchanged) {
  ModelWorker worker(Limits(), {});
  auto groups = worker.RunValues("the step", []() -> StatusOr<ValueGroups> {
    return InvalidArgument("m.onnx: input 'x' is float, got int64");
  });
  ASSERT_FALSE(groups.ok());
  EXPECT_EQ(groups.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(groups.status().message(), "m.onnx: input 'x' is float, got int64");
  EXPECT_FALSE(worker.last_step_died());
}

TEST(ModelWorkerTest, ACrashIsAnErrorNamingTheStepTheSignalAndWhereItWas) {
  ModelWorker worker(Limits(), {});
  auto text = worker.RunText("m.onnx: the run on ref", []() -> StatusOr<std::string> {
    SetWorkerBreadcrumb("running m.onnx");
    std::raise(SIGSEGV);
    return std::string("unreachable");
  });
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), StatusCode::kAborted);
  EXPECT_EQ(text.status().message(),
            "m.onnx: the run on ref crashed: killed by SIGSEGV while running m.onnx");
  EXPECT_TRUE(worker.last_step_died());
}

TEST(ModelWorkerTest, AHangIsKilledAtTheTimeout) {
  ModelWorker worker(Limits(0.3), {});
  auto text = worker.RunText("m.onnx: the run on ref", []() -> StatusOr<std::string> {
    SetWorkerBreadcrumb("running m.onnx");
    while (true) pause();
  });
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), StatusCode::kAborted);
  EXPECT_NE(text.status().message().find("m.onnx: the run on ref timed out after "),
            std::string::npos)
      << text.status().message();
  EXPECT_NE(text.status().message().find("(limit 0.3 s) while running m.onnx"), std::string::npos)
      << text.status().message();
  EXPECT_TRUE(worker.last_step_died());
}

TEST(ModelWorkerTest, AnAllocationPastTheMemoryLimitIsAnErrorSayingSo) {
  ModelWorker worker(Limits(5, 256), {});
  auto text = worker.RunText("m.onnx: the run on ref", []() -> StatusOr<std::string> {
    std::vector<char> huge(size_t{1} << 30);  // 1 GiB against a 256 MiB address space
    return std::string(1, huge[12345]);
  });
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("m.onnx: the run on ref failed: "), std::string::npos)
      << text.status().message();
  EXPECT_NE(text.status().message().find("ran out of its memory limit of 256 MiB"),
            std::string::npos)
      << text.status().message();
}

TEST(ModelWorkerTest, WithoutIsolationTheStepRunsInThisProcess) {
  ModelWorkerOptions o = Limits();
  o.isolation = Isolation::kNone;
  ModelWorker worker(o, {});
  int calls = 0;
  auto text = worker.RunText("the step", [&calls]() -> StatusOr<std::string> {
    ++calls;
    return std::string("here");
  });
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "here");
  EXPECT_EQ(calls, 1);
}

TEST(ModelWorkerTest, LimitsOutsideTheirBoundsAreRefusedNamingTheOption) {
  EXPECT_TRUE(ValidateModelWorkerOptions(Limits(1, 0)).ok());
  EXPECT_TRUE(ValidateModelWorkerOptions(Limits(1, kMinModelMemoryLimitMb)).ok());
  Status zero = ValidateModelWorkerOptions(Limits(0, 0));
  EXPECT_NE(zero.message().find("--timeout must be a number of seconds"), std::string::npos);
  EXPECT_FALSE(ValidateModelWorkerOptions(Limits(std::nan(""), 0)).ok());
  Status small = ValidateModelWorkerOptions(Limits(1, 10));
  EXPECT_NE(small.message().find("--memory-limit must be 0 (none) or at least 256 MiB, got 10"),
            std::string::npos)
      << small.message();
}

}  // namespace
}  // namespace onnxgate
