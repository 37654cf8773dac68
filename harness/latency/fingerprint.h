// The machine fingerprint that keys latency baselines: numbers measured on another CPU, with
// another core count or another build type say nothing about this machine, so they are never
// compared.
#pragma once

#include <cstdint>
#include <string>

namespace onnxgate {

struct MachineFingerprint {
  std::string cpu_model;  // /proc/cpuinfo "model name" (or "unknown-cpu")
  int64_t logical_cores = 0;
  std::string build_type;  // CMAKE_BUILD_TYPE of this binary: Release, Debug, ...

  // A folder-safe, readable key: the CPU model in lower case with runs of other characters
  // turned into '-', then "<cores>c" and the build type, e.g.
  // "intel-r-xeon-r-cpu-e5-2690-v4-2-60ghz_2c_release".
  std::string Id() const;
  // "Intel(R) Xeon(R) ... , 2 logical cores, Release build" for messages.
  std::string Describe() const;

  bool operator==(const MachineFingerprint& o) const {
    return cpu_model == o.cpu_model && logical_cores == o.logical_cores &&
           build_type == o.build_type;
  }
  bool operator!=(const MachineFingerprint& o) const { return !(*this == o); }
};

// This machine and this binary.
MachineFingerprint CurrentMachineFingerprint();

// The build type compiled into this library ("Release" unless told otherwise).
std::string CompiledBuildType();

}  // namespace onnxgate
