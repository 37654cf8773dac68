// One place that turns `--runtime` into a runtime under test, for every command that runs
// models (run, gate, ops, bench, baseline update):
//   builtin               onnxgate's own runtime (the default)
//   plugin:<path>         a shared library implementing the plugin ABI (docs/plugin-abi.md)
//   adapter:<command...>  a program speaking the adapter protocol (docs/adapter-protocol.md)
//   <name>                an entry of the registry adapters/runtimes.json ("ort": ONNX Runtime)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/plugin/plugin_probe.h"

namespace onnxgate {

inline constexpr char kBuiltinRuntimeSpec[] = "builtin";
// Relative to the repository root (--root).
inline constexpr char kRuntimeRegistryPath[] = "adapters/runtimes.json";

// What bounds the runtime's own work outside the cases' workers.
struct RuntimeLimits {
  // The command's --timeout (0: none): it also bounds an adapter's answers to the runtime's own
  // requests (claims, unloads) and, when set, a plugin probe's wall clock.
  double case_timeout_seconds = 0;
  PluginProbeLimits probe;  // how a plugin's probe runs
};
// The limits of a command whose --timeout is `case_timeout_seconds` (0: none): a plugin probe
// then waits that long too (whole seconds, at least 1) instead of its default.
RuntimeLimits RuntimeLimitsFor(double case_timeout_seconds);

// InvalidArgument for a spec of no known form, an empty plugin path or adapter command, NotFound
// for a name the registry does not have, and whatever creating the runtime returns (a plugin
// that is not one, a wrong ABI version, a plugin whose probe crashed, exited or timed out, an
// adapter that does not start, refused options). Registry commands name files relative to
// `root`. A plugin is never opened in this process: its probe runs under `limits.probe`, and
// its models load in the process that first loads one (a worker; plugin_runtime.h).
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntime(const std::string& spec,
                                                          const RuntimeOptions& options,
                                                          const std::string& root,
                                                          const RuntimeLimits& limits = {});

// Whether `spec` is a registry name (not builtin, and not plugin: or adapter:).
bool IsRegistryName(const std::string& spec);

// Parses `key=value` strings (--runtime-option) into options. InvalidArgument for a string
// without '=' or with an empty key, and for a key given twice.
StatusOr<RuntimeOptions> ParseRuntimeOptions(const std::vector<std::string>& pairs);

}  // namespace onnxgate
