// A plugin opened in the calling process: dlmopen, its function table checked, its runtime created,
// and every later call checked (include/onnxgate/plugin.h, docs/plugin-abi.md).
//
// Everything the plugin hands back is checked before the harness sees it: the entry point, the ABI
// version and size of its function table, every function pointer, status codes and messages,
// strings (bounded, valid UTF-8), counts (each capped, plugin_facts.h), provider and runtime names
// (CheckSafeName), value kinds, element types, versions, shapes and buffer sizes. A fault is an
// error that names the plugin's file, the model and what is wrong.
//
// Opening a plugin runs its code in this process: its constructors, create(), and whatever they do
// (exit, crash, hang). onnxgate calls this only in a process it can lose: a probe (plugin_probe.h),
// a forked worker, or the one process of a run the user asked to run without isolation. The main
// process of a run uses LoadPluginRuntime (plugin_runtime.h) instead.
#pragma once

#include <memory>
#include <string>

#include "runtime/api/runtime.h"

namespace onnxgate {

// Opens `path` (dlmopen, in a link-map namespace of its own), checks its function table and creates
// the runtime with `options`. NotFound for a missing file; InvalidArgument for a file that is not a
// plugin (no onnxgate_plugin_api), a plugin built for another ABI version (naming both), an
// incomplete table, a create() that fails, or facts past their limits (a provider count above
// kMaxPluginProviders, an unsafe provider name).
StatusOr<std::unique_ptr<RuntimeUnderTest>> OpenPluginInProcess(const std::string& path,
                                                                const RuntimeOptions& options);

}  // namespace onnxgate
