// The built-in runtime as a RuntimeUnderTest: onnxgate's own model loader and session with its
// execution providers (`ref` always; others as the build enables them).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/model/model.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

using ProviderFactory = std::function<StatusOr<std::shared_ptr<const ExecutionProvider>>()>;

// A provider the runtime can offer, created on first use and then shared by every load.
struct ProviderEntry {
  std::string name;
  ProviderFactory create;
};

// The providers compiled into this build: "ref", then "dnnl" when built with
// ONNXGATE_WITH_DNNL and "opencl" when built with ONNXGATE_WITH_OPENCL (the providers that
// misbehave on purpose are test-only: runtime/ep/testing/test_providers.h). A load that does not
// request "ref" gets it as its last provider, for the nodes the requested ones decline.
std::vector<ProviderEntry> BuiltinProviderEntries();

// The ref provider, built once per process and then shared: the oracle the other providers are
// compared with, and the host provider that lends dnnl the kernels it runs on the host
// (runtime/provider/borrowed_kernel.h). Its registration error, if any, on every call.
StatusOr<std::shared_ptr<const ExecutionProvider>> BuiltinRefProvider();

// The built-in runtime offering BuiltinProviderEntries().
std::unique_ptr<RuntimeUnderTest> CreateBuiltinRuntime();
// The same, from runtime options as a user gives them: it takes none, so any key is refused.
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateBuiltinRuntimeFromOptions(
    const RuntimeOptions& options);
// The same runtime offering `entries` instead: the hook through which tests add providers of
// their own (entries with a name already taken are an error at Load, naming it). `model_options`
// sets the loading limits and whether shape inference runs in a child process.
std::unique_ptr<RuntimeUnderTest> CreateBuiltinRuntime(std::vector<ProviderEntry> entries,
                                                       ModelOptions model_options = {});

}  // namespace onnxgate
