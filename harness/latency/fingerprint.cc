// The machine fingerprint from /proc/cpuinfo, the online core count and the build type.
#include "harness/latency/fingerprint.h"

#include <unistd.h>

#include <cctype>
#include <fstream>

#ifndef ONNXGATE_BUILD_TYPE
#define ONNXGATE_BUILD_TYPE "Release"
#endif

namespace onnxgate {

namespace {

std::string Slug(const std::string& text) {
  std::string out;
  bool dash = false;
  for (unsigned char c : text) {
    if (std::isalnum(c)) {
      if (dash && !out.empty()) out += '-';
      out += static_cast<char>(std::tolower(c));
      dash = false;
    } else {
      dash = true;
    }
  }
  return out.empty() ? "unknown" : out;
}

std::string ReadCpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    // x86 writes "model name"; some ARM kernels only "Hardware" or "CPU part".
    for (const char* key : {"model name", "Hardware"}) {
      if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) {
        std::string value = line.substr(line.find(':') + 1);
        const size_t first = value.find_first_not_of(" \t");
        if (first != std::string::npos) return value.substr(first);
      }
    }
  }
  return "unknown-cpu";
}

}  // namespace

std::string MachineFingerprint::Id() const {
  return Slug(cpu_model) + "_" + std::to_string(logical_cores) + "c_" + Slug(build_type);
}

std::string MachineFingerprint::Describe() const {
  return cpu_model + ", " + std::to_string(logical_cores) + " logical cores, " + build_type +
         " build";
}

std::string CompiledBuildType() {
  const std::string type = ONNXGATE_BUILD_TYPE;
  return type.empty() ? "unspecified" : type;
}

MachineFingerprint CurrentMachineFingerprint() {
  MachineFingerprint f;
  f.cpu_model = ReadCpuModel();
  f.logical_cores = static_cast<int64_t>(::sysconf(_SC_NPROCESSORS_ONLN));
  f.build_type = CompiledBuildType();
  return f;
}

}  // namespace onnxgate
