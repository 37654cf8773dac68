// One place that turns `--runtime` into a runtime under test, for every command that runs
// models (run, gate, ops, bench, baseline update):
//   builtin          onnxgate's own runtime (the default)
//   plugin:<path>    a shared library implementing the plugin ABI (docs/plugin-abi.md)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"

namespace onnxgate {

inline constexpr char kBuiltinRuntimeSpec[] = "builtin";

// InvalidArgument for a spec of no known form or an empty plugin path, and whatever creating
// the runtime returns (a plugin that is not one, a wrong ABI version, refused options).
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntime(const std::string& spec,
                                                          const RuntimeOptions& options);

// Parses `key=value` strings (--runtime-option) into options. InvalidArgument for a string
// without '=' or with an empty key, and for a key given twice.
StatusOr<RuntimeOptions> ParseRuntimeOptions(const std::vector<std::string>& pairs);

}  // namespace onnxgate
