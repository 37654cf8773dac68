// OpenCL's C API at the version the opencl EP is written against (1.2: what PoCL and every GPU
// vendor's driver offer), included through this header only.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
