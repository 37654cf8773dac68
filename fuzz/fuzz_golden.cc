// libFuzzer target: an HDF5 golden file through the golden reader (written to a scratch file,
// since HDF5 opens paths).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "golden/golden_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = onnxgate::fuzz::WriteScratchFile("golden.h5", data, size);
  auto golden = onnxgate::ReadGolden(path);
  (void)golden;
  return 0;
}
