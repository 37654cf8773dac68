// Writes the seed inputs of fuzz_tensor_proto: one serialized TensorProto per ONNX element type
// but STRING, in raw and typed storage, from onnxgate's own writer.
// Usage: make_seeds <folder>.
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "runtime/base/data_type.h"
#include "runtime/base/tensor.h"
#include "runtime/proto/tensor_proto.h"

namespace {

bool Write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <folder>\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  int written = 0;
  for (int code = 1; code <= 26; ++code) {
    if (!onnxgate::IsValidDataType(code)) continue;
    const auto type = static_cast<onnxgate::DataType>(code);
    if (type == onnxgate::DataType::kString) continue;  // no zero-filled form; typed only
    onnxgate::Tensor t(type, onnxgate::Shape({2, 3}));
    for (auto storage :
         {onnxgate::TensorProtoStorage::kRawData, onnxgate::TensorProtoStorage::kTypedField}) {
      const onnx::TensorProto proto = onnxgate::TensorToProto(t, "t", storage);
      const std::string name =
          dir + "/tensor_" + std::to_string(code) + "_" +
          (storage == onnxgate::TensorProtoStorage::kRawData ? "raw" : "typed") + ".pb";
      if (!Write(name, proto.SerializeAsString())) return 1;
      ++written;
    }
  }
  std::printf("%d seeds in %s\n", written, dir.c_str());
  return written > 0 ? 0 : 1;
}
