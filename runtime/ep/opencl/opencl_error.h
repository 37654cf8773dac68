// The one place where OpenCL's errors become Status values: a cl_int code with the call that
// returned it ("OpenCL clEnqueueNDRangeKernel(relu_f32): CL_OUT_OF_RESOURCES (-5)"), and a
// failed program build with its build log.
#pragma once

#include <string>

#include "runtime/base/status.h"
#include "runtime/ep/opencl/opencl_headers.h"

namespace onnxgate::opencl_ep {

// "CL_OUT_OF_RESOURCES"; "unknown OpenCL error" for a code the headers do not name.
const char* ClErrorName(cl_int code);

// OK for CL_SUCCESS. Otherwise "OpenCL <call>: <name> (<code>)", where `call` says what was
// called on what ("clEnqueueNDRangeKernel(relu_f32)"). Running out of device or host memory
// (CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY) is
// Unavailable, as a failed allocation is elsewhere in the runtime; any other code is Internal:
// the provider asked for something its device refused.
Status ClStatus(cl_int code, const std::string& call);

// A failed clBuildProgram: Internal, with the device's build log (its last 4000 characters).
Status ClBuildStatus(cl_int code, const std::string& program, const std::string& log);

}  // namespace onnxgate::opencl_ep
