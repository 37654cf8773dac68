// libFuzzer target: ONNX text format through the parser and the model loader's checks.
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "runtime/model/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto proto = onnxgate::Model::ParseText(text, "fuzz.onnxtxt");
  if (!proto.ok()) return 0;
  auto model = onnxgate::Model::FromProto(std::move(proto).value(), onnxgate::fuzz::ScratchDir(),
                                          "fuzz.onnxtxt");
  (void)model;
  return 0;
}
