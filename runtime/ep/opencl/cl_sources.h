// The OpenCL C sources of the opencl EP (runtime/ep/opencl/cl/*.cl), embedded into the library
// at build time by embed_cl_sources.cmake: the provider never looks for a file at run time.
#pragma once

#include <vector>

namespace onnxgate::opencl_ep {

struct ClSource {
  const char* name;  // the file name, e.g. "elementwise.cl"
  const char* text;  // its text, led by a #line directive naming the file
};

// Every .cl file, in the order CMake lists them; the provider builds them into one program.
const std::vector<ClSource>& EmbeddedClSources();

}  // namespace onnxgate::opencl_ep
