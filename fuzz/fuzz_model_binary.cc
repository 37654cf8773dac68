// libFuzzer target: a binary ModelProto through the whole model loader (parse, limits, opsets,
// external data against an empty folder, the checker, shape inference as in production: in a
// child process). Every input must end in a Status, never a crash.
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "runtime/model/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onnx::ModelProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  auto model =
      onnxgate::Model::FromProto(std::move(proto), onnxgate::fuzz::ScratchDir(), "fuzz.onnx");
  (void)model;
  return 0;
}
