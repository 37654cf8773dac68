// The built-in runtime with the test providers (test-crash, test-hang, test-broken-relu,
// test-memory-hog, test-corrupt-state) as a plugin, libonnxgate_test_providers_plugin.so: for the
// command-line checks that need a kernel that crashes, hangs, is wrong, takes all the memory it
// can or spoils its process, without any of them in the runtime onnxgate ships. Its runtime
// option isolation=case (--runtime-option isolation=case) makes the plugin say that each case
// needs a process of its own (needs_case_isolation).
#include "onnxgate/plugin.h"
#include "runtime/ep/testing/test_providers.h"
#include "runtime/plugin/plugin_export.h"

namespace {

onnxgate::StatusOr<std::unique_ptr<onnxgate::RuntimeUnderTest>> Create(
    const onnxgate::RuntimeOptions& options) {
  return onnxgate::CreateRuntimeWithTestProviders(options);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const OnnxgatePluginApi* onnxgate_plugin_api(
    void) {
  return onnxgate::ExportRuntime(&Create);
}
