// --runtime and --runtime-option into a runtime under test.
#include "harness/runtime_factory.h"

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/plugin/plugin_runtime.h"

namespace onnxgate {

namespace {

constexpr char kPluginPrefix[] = "plugin:";

}  // namespace

StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntime(const std::string& spec,
                                                          const RuntimeOptions& options) {
  if (spec == kBuiltinRuntimeSpec) return CreateBuiltinRuntimeFromOptions(options);
  const std::string prefix = kPluginPrefix;
  if (spec.compare(0, prefix.size(), prefix) == 0) {
    const std::string path = spec.substr(prefix.size());
    if (path.empty()) return InvalidArgument("--runtime plugin: needs a path: plugin:<file.so>");
    return LoadPluginRuntime(path, options);
  }
  return InvalidArgument("unknown runtime '" + spec + "'; expected builtin or plugin:<file.so>");
}

StatusOr<RuntimeOptions> ParseRuntimeOptions(const std::vector<std::string>& pairs) {
  RuntimeOptions options;
  for (const std::string& pair : pairs) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgument("runtime option '" + pair + "' is not key=value");
    }
    const std::string key = pair.substr(0, eq);
    if (!options.emplace(key, pair.substr(eq + 1)).second) {
      return InvalidArgument("runtime option '" + key + "' is given twice");
    }
  }
  return options;
}

}  // namespace onnxgate
