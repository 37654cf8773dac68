// libFuzzer target: the NumPy .npz reader (a zip through libzip, each member parsed as .npy) and
// the .npy parser on the raw bytes, as `onnxgate record --input inputs.npz` reads them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "harness/models/npz_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = onnxgate::fuzz::WriteScratchFile("inputs.npz", data, size);
  auto arrays = onnxgate::ReadNpzFile(path);
  (void)arrays;
  auto array = onnxgate::ParseNpy(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npy");
  (void)array;
  return 0;
}
