# Writes the OpenCL C sources of the opencl EP into one C++ file, as string literals, at build
# time: cmake -DOUTPUT=<file.cc> -DSOURCES=<a.cl;b.cl;...> -P embed_cl_sources.cmake
# Each source becomes one raw string literal preceded by a #line directive naming its file, so
# an OpenCL compiler's build log points at the .cl file and line. Nothing reads a .cl file at
# run time. The file is rewritten only when its text changes, so an unchanged source rebuilds
# nothing.
cmake_minimum_required(VERSION 3.25)
if(NOT OUTPUT OR NOT SOURCES)
  message(FATAL_ERROR "embed_cl_sources.cmake needs -DOUTPUT=<file> -DSOURCES=<list>")
endif()

set(delimiter "onnxgate_cl")
set(entries "")
foreach(source IN LISTS SOURCES)
  get_filename_component(name "${source}" NAME)
  file(READ "${source}" text)
  if(text MATCHES "\\)${delimiter}\"")
    message(FATAL_ERROR "${source} contains the raw-string delimiter )${delimiter}\"")
  endif()
  string(APPEND entries "    {\"${name}\",\n"
         "     R\"${delimiter}(#line 1 \"${name}\"\n${text})${delimiter}\"},\n")
endforeach()

set(content "// Generated from runtime/ep/opencl/cl/*.cl by embed_cl_sources.cmake.
// Do not edit: edit the .cl files.
#include \"runtime/ep/opencl/cl_sources.h\"

namespace onnxgate::opencl_ep {

const std::vector<ClSource>& EmbeddedClSources() {
  static const std::vector<ClSource> sources = {
${entries}  };
  return sources;
}

}  // namespace onnxgate::opencl_ep
")

if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
