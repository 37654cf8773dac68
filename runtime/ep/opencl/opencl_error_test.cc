// OpenCL error codes become Status values with the call and the code's name, once.
#include "runtime/ep/opencl/opencl_error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate::opencl_ep {
namespace {

using ::testing::HasSubstr;

TEST(OpenClErrorTest, SuccessIsOk) { EXPECT_TRUE(ClStatus(CL_SUCCESS, "clFinish(x)").ok()); }

TEST(OpenClErrorTest, NamesTheCallAndTheCode) {
  Status st = ClStatus(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel(relu_f32)");
  EXPECT_EQ(st.message(), "OpenCL clEnqueueNDRangeKernel(relu_f32): CL_OUT_OF_RESOURCES (-5)");
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  st = ClStatus(CL_INVALID_KERNEL_NAME, "clCreateKernel(nope)");
  EXPECT_EQ(st.message(), "OpenCL clCreateKernel(nope): CL_INVALID_KERNEL_NAME (-46)");
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_STREQ(ClErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_STREQ(ClErrorName(-9999), "unknown OpenCL error");
}

TEST(OpenClErrorTest, BuildFailuresCarryTheEndOfTheLog) {
  Status st = ClBuildStatus(CL_BUILD_PROGRAM_FAILURE, "binary.cl",
                            "binary.cl:3:1: error: unknown type name 'flot'\n");
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_THAT(st.message(),
              HasSubstr("OpenCL clBuildProgram(binary.cl): CL_BUILD_PROGRAM_FAILURE"));
  EXPECT_THAT(st.message(), HasSubstr("binary.cl:3:1: error: unknown type name 'flot'"));
  const std::string long_log = std::string(10000, 'x') + "the last line";
  st = ClBuildStatus(CL_BUILD_PROGRAM_FAILURE, "p", long_log);
  EXPECT_LT(st.message().size(), 4200u);
  EXPECT_THAT(st.message(), HasSubstr("the last line"));
  EXPECT_THAT(ClBuildStatus(CL_BUILD_PROGRAM_FAILURE, "p", "").message(),
              HasSubstr("no build log"));
}

}  // namespace
}  // namespace onnxgate::opencl_ep
