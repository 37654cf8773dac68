// The built-in runtime as a plugin (libonnxgate_builtin_plugin.so): the same runtime behind the
// plugin ABI, so that `--runtime plugin:<path>` can be checked against `--runtime builtin`.
#include "onnxgate/plugin.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/plugin/plugin_export.h"

extern "C" __attribute__((visibility("default"))) const OnnxgatePluginApi* onnxgate_plugin_api(
    void) {
  return onnxgate::ExportRuntime(&onnxgate::CreateBuiltinRuntimeFromOptions);
}
