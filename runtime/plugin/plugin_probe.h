// The probe: a forked child that opens a plugin, asks it everything the harness needs to know
// before running a model (plugin_facts.h), sends the answers back as bytes and exits. The process
// that asks never opens the plugin, so nothing the plugin does while it is opened or created
// (exit(0), a crash, a hang, an allocation without bound) can end or stall it: each is one error
// naming the plugin's file and what happened to its probe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/plugin/plugin_facts.h"

namespace onnxgate {

inline constexpr int kDefaultPluginProbeTimeoutSeconds = 60;
inline constexpr size_t kDefaultPluginProbeMemoryLimitBytes = size_t{4096} << 20;

struct PluginProbeLimits {
  int timeout_seconds = kDefaultPluginProbeTimeoutSeconds;  // wall clock, at least 1
  // The probe's address space (RLIMIT_AS), as for a worker; 0: none.
  size_t memory_limit_bytes = kDefaultPluginProbeMemoryLimitBytes;
};

// Probes the plugin at `path` created with `options`: its facts, with claims, thread limits and
// availability for every provider it lists and for each of `extra_providers`. The plugin's own
// refusals (not a plugin, wrong ABI, create() failed, a fact past its limit) come back as the probe
// found them. A probe that did not answer is Internal: "plugin <path>: probe killed by SIGSEGV
// (opening the plugin and asking it for its facts)", "... probe exited with code 0 before
// answering", "... probe timed out after N s", or "... probe answered nonsense: ...".
StatusOr<PluginFacts> ProbePlugin(const std::string& path, const RuntimeOptions& options,
                                  const PluginProbeLimits& limits,
                                  const std::vector<std::string>& extra_providers = {});

}  // namespace onnxgate
