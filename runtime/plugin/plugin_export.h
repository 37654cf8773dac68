// Any RuntimeUnderTest offered through the plugin ABI (include/onnxgate/plugin.h): the other
// side of plugin_in_process.h. A plugin built on onnxgate's own libraries defines its entry
// point as
//
//   extern "C" const OnnxgatePluginApi* onnxgate_plugin_api(void) {
//     return onnxgate::ExportRuntime(&CreateMyRuntime);
//   }
//
// Every exported function catches exceptions and turns them into an INTERNAL status: nothing
// unwinds through the C boundary.
#pragma once

#include <memory>

#include "onnxgate/plugin.h"
#include "runtime/api/runtime.h"

namespace onnxgate {

using RuntimeFactoryFunction =
    StatusOr<std::unique_ptr<RuntimeUnderTest>> (*)(const RuntimeOptions& options);

// The function table that creates runtimes with `factory`. One factory per shared library: a
// later call with another factory is refused (the table returns INTERNAL from create).
const OnnxgatePluginApi* ExportRuntime(RuntimeFactoryFunction factory);

}  // namespace onnxgate
