// libFuzzer target: the adapter protocol reader (runtime/adapter), fed as an adapter would feed
// it. The input is what the adapter writes on its stdout; `cat <input>` plays the adapter, so
// the real process, pipe, frame and reply code runs: hello, then claims, load and one run, each
// reading the next frame of the input (or the end of it). Requests are numbered from 1 in each
// adapter process, so an input's replies carry "id" 1, 2, 3, 4 to be read as the replies.
#include <signal.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "runtime/adapter/adapter_runtime.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // An adapter that stopped reading is an error (EPIPE) to the library; keep it that way if a
  // write ever slips past its own guard.
  signal(SIGPIPE, SIG_IGN);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = onnxgate::fuzz::WriteScratchFile("adapter_output", data, size);
  onnxgate::AdapterTimeouts timeouts;
  timeouts.hello = std::chrono::seconds(10);
  timeouts.control = std::chrono::seconds(10);
  timeouts.call = std::chrono::seconds(10);
  auto runtime = onnxgate::CreateAdapterRuntime("cat " + path, {}, timeouts);
  if (!runtime.ok()) return 0;
  const std::vector<std::string> providers = (*runtime)->providers();
  if (providers.empty()) return 0;
  (void)(*runtime)->Claims(providers.front());
  onnxgate::LoadOptions options;
  options.providers = {providers.front()};
  auto model = (*runtime)->Load("model.onnx", options);
  if (!model.ok()) return 0;
  (void)(*model)->inputs();
  (void)(*model)->placements();
  onnxgate::Tensor x(onnxgate::DataType::kFloat, onnxgate::Shape({1, 2}));
  (void)(*model)->Run({{"X", onnxgate::Value::FromTensor(x)}});
  return 0;
}
