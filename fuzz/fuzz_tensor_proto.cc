// libFuzzer target: the reader of serialized TensorProto, SequenceProto and OptionalProto (ONNX
// test data, input_0.pb), each input read as all three kinds, external data resolving beneath
// an empty folder.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "runtime/base/contained_file.h"
#include "runtime/proto/tensor_proto.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto dir = onnxgate::ContainedDir::Open(onnxgate::fuzz::ScratchDir());
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (const char* kind : {"tensor", "sequence", "optional"}) {
    auto value = onnxgate::ParseValueProto(bytes, kind, "fuzz.pb", dir.ok() ? &*dir : nullptr);
    (void)value;
  }
  return 0;
}
