// The opencl EP's context: the embedded sources, the device probe that leaves the calling
// process free of OpenCL (so a forked child can use the device), kernel launches, device
// buffers used in place by launches and read back, and a process forked after set-up refused
// with an error instead of hanging (and leaving the buffers it inherited alone). The tests that
// need a fresh process run as gtest death tests in the "threadsafe" style, which re-executes the
// test binary, so no earlier test's OpenCL state is inherited.
#include "runtime/ep/opencl/opencl_context.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/ep/opencl/cl_sources.h"

namespace onnxgate::opencl_ep {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ClSourcesTest, EveryClFileIsEmbeddedWithItsName) {
  const std::vector<ClSource>& sources = EmbeddedClSources();
  std::vector<std::string> names;
  for (const ClSource& s : sources) {
    names.push_back(s.name);
    EXPECT_THAT(std::string(s.text), StartsWith(std::string("#line 1 \"") + s.name + "\"\n"));
  }
  EXPECT_THAT(names,
              ::testing::IsSupersetOf({"elementwise.cl", "binary.cl", "matmul.cl", "softmax.cl"}));
  bool relu = false;
  for (const ClSource& s : sources) relu = relu || std::strstr(s.text, "relu_f32") != nullptr;
  EXPECT_TRUE(relu);
}

// The context, or a skip where there is no OpenCL device.
std::shared_ptr<const OpenClContext> ContextOrSkip(std::string* why) {
  auto context = OpenClContext::Create();
  if (!context.ok()) {
    *why = context.status().ToString();
    return nullptr;
  }
  return *context;
}

TEST(OpenClContextTest, RunsAKernelAndCopiesTheResultBack) {
  std::string why;
  auto cl = ContextOrSkip(&why);
  if (cl == nullptr) GTEST_SKIP() << why;
  EXPECT_FALSE(cl->device_description().empty());
  const std::vector<float> x = {-1.0f, 2.0f, -3.0f, 4.0f};
  std::vector<float> y(4, 99.0f);
  Status st = cl->Run(
      "relu_f32", {4},
      {KernelArg::Input(x.data(), 16), KernelArg::Output(y.data(), 16), KernelArg::Float(0.0f)});
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(y, (std::vector<float>{0.0f, 2.0f, 0.0f, 4.0f}));
  // No work item: nothing runs, nothing is written.
  st = cl->Run(
      "relu_f32", {0},
      {KernelArg::Input(x.data(), 0), KernelArg::Output(y.data(), 0), KernelArg::Float(0.0f)});
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(OpenClContextTest, AnUnknownKernelIsAnErrorNamingIt) {
  std::string why;
  auto cl = ContextOrSkip(&why);
  if (cl == nullptr) GTEST_SKIP() << why;
  Status st = cl->Run("no_such_kernel", {1}, {});
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_THAT(st.message(),
              HasSubstr("OpenCL clCreateKernel(no_such_kernel): CL_INVALID_KERNEL_NAME"));
}

TEST(OpenClContextTest, DeviceBuffersAreUsedInPlaceAndReadBack) {
  std::string why;
  auto cl = ContextOrSkip(&why);
  if (cl == nullptr) GTEST_SKIP() << why;
  const std::vector<float> x = {-1.0f, 2.0f, -3.0f, 4.0f};
  auto in = cl->NewBuffer(16, x.data());
  auto mid = cl->NewBuffer(16);
  auto out = cl->NewBuffer(16);
  ASSERT_TRUE(in.ok() && mid.ok() && out.ok()) << in.status().ToString();
  EXPECT_EQ((*in)->bytes(), 16u);
  // Two launches chained on the device: nothing reaches the host until the read.
  Status st = cl->Run("neg_f32", {4},
                      {KernelArg::Device(*in), KernelArg::Device(*mid), KernelArg::Float(0.0f)});
  ASSERT_TRUE(st.ok()) << st.ToString();
  st = cl->Run("relu_f32", {4},
               {KernelArg::Device(*mid), KernelArg::Device(*out), KernelArg::Float(0.0f)});
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::vector<float> y(4, 99.0f);
  st = cl->ReadBuffer(**out, y.data(), 16, "the result");
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(y, (std::vector<float>{1.0f, 0.0f, 3.0f, 0.0f}));
  // A device buffer mixes with host operands, and a launch may write into one in place.
  std::vector<float> z(4, 0.0f);
  st = cl->Run(
      "add_same_f32", {4},
      {KernelArg::Device(*out), KernelArg::Input(x.data(), 16), KernelArg::Output(z.data(), 16)});
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(z, (std::vector<float>{0.0f, 2.0f, 0.0f, 4.0f}));
  // A part of a buffer reads back too; more than it holds does not.
  std::vector<float> first(1, 0.0f);
  EXPECT_TRUE(cl->ReadBuffer(**in, first.data(), 4, "the input").ok());
  EXPECT_EQ(first[0], -1.0f);
  st = cl->ReadBuffer(**in, y.data(), 32, "the input");
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_THAT(st.message(), HasSubstr("32 bytes of a device buffer of 16"));
}

TEST(OpenClContextTest, ThereAreNoEmptyDeviceBuffers) {
  std::string why;
  auto cl = ContextOrSkip(&why);
  if (cl == nullptr) GTEST_SKIP() << why;
  auto empty = cl->NewBuffer(0);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kInternal);
  EXPECT_THAT(empty.status().message(), HasSubstr("OpenCL has no empty buffers"));
}

TEST(OpenClContextTest, ABufferOfAnotherContextIsRefused) {
  std::string why;
  auto cl = ContextOrSkip(&why);
  if (cl == nullptr) GTEST_SKIP() << why;
  auto other = ContextOrSkip(&why);
  ASSERT_NE(other, nullptr) << why;
  auto buffer = other->NewBuffer(16);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  std::vector<float> y(4);
  Status st = cl->Run(
      "relu_f32", {4},
      {KernelArg::Device(*buffer), KernelArg::Output(y.data(), 16), KernelArg::Float(0.0f)});
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_THAT(st.message(), HasSubstr("belongs to another OpenCL context"));
  st = cl->ReadBuffer(**buffer, y.data(), 16, "a tensor");
  EXPECT_EQ(st.code(), StatusCode::kInternal);
}

// In a fresh process: the probe touches no OpenCL here, so a child forked afterwards sets the
// device up and runs a kernel (it would hang if this process had called OpenCL).
void ProbeThenForkedChildRuns() {
  auto context = OpenClContext::Create();
  if (!context.ok()) {
    std::fprintf(stderr, "skipped: %s\n", context.status().ToString().c_str());
    std::_Exit(0);
  }
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(60);
    float x = -2.0f, y = 0.0f;
    Status st = (*context)->Run(
        "abs_f32", {1},
        {KernelArg::Input(&x, 4), KernelArg::Output(&y, 4), KernelArg::Float(0.0f)});
    std::_Exit(st.ok() && y == 2.0f ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::fprintf(stderr, "child: %d\n", status);
  std::_Exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1);
}

// In a fresh process: after this process set the device up, a forked child gets an error
// naming the fork instead of hanging in the OpenCL implementation, and the device buffer it
// inherited is released without calling OpenCL.
void SetUpThenForkedChildIsRefused() {
  auto context = OpenClContext::Create();
  if (!context.ok()) {
    std::fprintf(stderr, "skipped: %s\n", context.status().ToString().c_str());
    std::_Exit(0);
  }
  Status ready = (*context)->Prepare();
  if (!ready.ok()) std::_Exit(2);
  const float held = 3.0f;
  auto buffer = (*context)->NewBuffer(4, &held);
  if (!buffer.ok()) std::_Exit(3);
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(60);
    float x = -2.0f, y = 0.0f;
    Status st = (*context)->Run(
        "abs_f32", {1},
        {KernelArg::Input(&x, 4), KernelArg::Output(&y, 4), KernelArg::Float(0.0f)});
    bool refused = !st.ok() && st.message().find("forked") != std::string::npos;
    st = (*context)->ReadBuffer(**buffer, &y, 4, "the inherited buffer");
    refused = refused && !st.ok() && st.message().find("forked") != std::string::npos;
    // Dropping the inherited buffer calls no OpenCL here (it would hang, and alarm fires).
    buffer->reset();
    std::_Exit(refused ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::_Exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1);
}

// In a fresh process whose ICD loader finds no platform: Unavailable "no OpenCL device".
void NoPlatformIsUnavailable() {
  setenv("OCL_ICD_VENDORS", "/nonexistent/onnxgate-no-icd", 1);
  auto context = OpenClContext::Create();
  if (context.ok()) std::_Exit(1);
  std::fprintf(stderr, "%s\n", context.status().ToString().c_str());
  std::_Exit(context.status().code() == StatusCode::kUnavailable ? 0 : 1);
}

class OpenClFreshProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(OpenClFreshProcessTest, TheProbeLeavesThisProcessFreeOfOpenCl) {
  EXPECT_EXIT(ProbeThenForkedChildRuns(), ::testing::ExitedWithCode(0), "");
}

TEST_F(OpenClFreshProcessTest, AProcessForkedAfterSetUpIsRefusedNotHung) {
  EXPECT_EXIT(SetUpThenForkedChildIsRefused(), ::testing::ExitedWithCode(0), "");
}

TEST_F(OpenClFreshProcessTest, NoPlatformMeansNoOpenClDevice) {
  EXPECT_EXIT(NoPlatformIsUnavailable(), ::testing::ExitedWithCode(0),
              "UNAVAILABLE: no OpenCL device: no OpenCL platform is installed");
}

}  // namespace
}  // namespace onnxgate::opencl_ep
