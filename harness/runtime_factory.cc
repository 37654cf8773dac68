// --runtime and --runtime-option into a runtime under test.
#include "harness/runtime_factory.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "runtime/adapter/adapter_runtime.h"
#include "runtime/base/json_reader.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/plugin/plugin_runtime.h"

namespace onnxgate {

namespace {

constexpr char kPluginPrefix[] = "plugin:";
constexpr char kAdapterPrefix[] = "adapter:";

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The registry's entry for `name`: the spec it stands for, with paths made absolute against the
// repository root. NotFound when the registry has no such name.
StatusOr<std::string> FromRegistry(const std::string& name, const std::string& root) {
  const std::string path = root + "/" + kRuntimeRegistryPath;
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc, JsonDocument::ReadFile(path, "runtime registry"));
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject registry, doc.RootObject());
  std::optional<JsonValue> entry = registry.Find(name);
  if (!entry) {
    std::string known;
    for (const auto& [key, value] : doc.raw().items()) known += (known.empty() ? "" : ", ") + key;
    return NotFound("unknown runtime '" + name +
                    "'; expected builtin, plugin:<file.so>, "
                    "adapter:<command...> or a name in " +
                    path + " (" + known + ")");
  }
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject runtime, entry->Object());
  std::string adapter;
  ONNXGATE_RETURN_IF_ERROR(runtime.Require("adapter", &adapter));
  // Words that name files in the repository (they contain a '/') resolve against the root.
  std::string command;
  std::istringstream words(adapter);
  std::string word;
  while (words >> word) {
    if (word.find('/') != std::string::npos && word[0] != '/') word = root + "/" + word;
    command += (command.empty() ? "" : " ") + word;
  }
  return kAdapterPrefix + command;
}

}  // namespace

RuntimeLimits RuntimeLimitsFor(double case_timeout_seconds) {
  RuntimeLimits limits;
  limits.case_timeout_seconds = case_timeout_seconds;
  if (case_timeout_seconds > 0) {
    limits.probe.timeout_seconds =
        static_cast<int>(std::max(1.0, std::ceil(std::min(case_timeout_seconds, 86400.0))));
  }
  return limits;
}

StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntime(const std::string& spec,
                                                          const RuntimeOptions& options,
                                                          const std::string& root,
                                                          const RuntimeLimits& limits) {
  if (spec == kBuiltinRuntimeSpec) return CreateBuiltinRuntimeFromOptions(options);
  if (StartsWith(spec, kAdapterPrefix)) {
    const std::string command = spec.substr(std::string(kAdapterPrefix).size());
    if (command.find_first_not_of(' ') == std::string::npos) {
      return InvalidArgument("--runtime adapter: needs a command: adapter:<program> [args...]");
    }
    return CreateAdapterRuntime(command, options, AdapterTimeoutsFor(limits.case_timeout_seconds));
  }
  const std::string prefix = kPluginPrefix;
  if (spec.compare(0, prefix.size(), prefix) == 0) {
    const std::string path = spec.substr(prefix.size());
    if (path.empty()) return InvalidArgument("--runtime plugin: needs a path: plugin:<file.so>");
    return LoadPluginRuntime(path, options, limits.probe);
  }
  if (IsRegistryName(spec)) {
    ONNXGATE_ASSIGN_OR_RETURN(std::string registered, FromRegistry(spec, root));
    return CreateRuntime(registered, options, root, limits);
  }
  return InvalidArgument("unknown runtime '" + spec +
                         "'; expected builtin, plugin:<file.so>, adapter:<command...> or a name "
                         "in " +
                         std::string(kRuntimeRegistryPath));
}

bool IsRegistryName(const std::string& spec) {
  return !spec.empty() && spec != kBuiltinRuntimeSpec && spec.find(':') == std::string::npos;
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
