// A runtime under test loaded from a shared library that implements the plugin ABI
// (include/onnxgate/plugin.h, docs/plugin-abi.md).
//
// Everything the plugin hands back is checked before the harness sees it: the entry point, the
// ABI version and size of its function table, every function pointer, status codes and
// messages, strings, counts, value kinds, element types, shapes and buffer sizes. A fault is an
// error that names the plugin's file, the model and what is wrong, never a crash of onnxgate
// (a plugin that crashes or hangs by itself is contained by the worker process running it).
#pragma once

#include <memory>
#include <string>

#include "runtime/api/runtime.h"

namespace onnxgate {

// Opens `path` (dlmopen, in a link-map namespace of its own), checks its function table and creates the runtime with `options`.
// NotFound for a missing file; InvalidArgument for a file that is not a plugin (no
// onnxgate_plugin_api), a plugin built for another ABI version (naming both), an incomplete
// table, or a create() that fails.
StatusOr<std::unique_ptr<RuntimeUnderTest>> LoadPluginRuntime(const std::string& path,
                                                             const RuntimeOptions& options);

}  // namespace onnxgate
