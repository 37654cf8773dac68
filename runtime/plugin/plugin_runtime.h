// A runtime under test loaded from a shared library that implements the plugin ABI
// (include/onnxgate/plugin.h, docs/plugin-abi.md), safe to hold in the main process of a run.
//
// The process that calls LoadPluginRuntime never opens the plugin nor runs any of its code: a probe
// (plugin_probe.h) opens it in a forked child and reports its name, version, whether its cases
// need a process each, accepted versions, providers, and each provider's claims, thread limit and
// availability, which this runtime then answers from.
// Load (and so every Run) opens the plugin in the process that first calls it
// (plugin_in_process.h): a forked worker, which a crash, exit or hang of the plugin ends alone; or,
// where the caller runs models in its own process (--isolation none), the caller.
#pragma once

#include <memory>
#include <string>

#include "runtime/api/runtime.h"
#include "runtime/plugin/plugin_probe.h"

namespace onnxgate {

// NotFound for a missing file; the probe's error otherwise: the plugin's own refusals
// (InvalidArgument for a file that is not a plugin, a plugin built for another ABI version, an
// incomplete table, a create() that fails; Internal for a fact past its limit), or a probe that
// crashed, exited, timed out or answered nonsense (Internal, "plugin <path>: probe ..."). Claims,
// MaxIntraOpThreads and ProviderAvailability of a provider the plugin does not list are asked of a
// probe of their own (or of the plugin itself once this process has opened it), once per provider.
StatusOr<std::unique_ptr<RuntimeUnderTest>> LoadPluginRuntime(
    const std::string& path, const RuntimeOptions& options,
    const PluginProbeLimits& limits = PluginProbeLimits());

}  // namespace onnxgate
