// libFuzzer target: the NumPy .npz reader (a zip through libzip, each member parsed as .npy) and
// the .npy parser on the raw bytes, as `onnxgate record --input inputs.npz` reads them: every
// array with the default budget, and one named array with a small budget, so the paths that
// skip members and refuse a budget run too.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "harness/models/npz_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = onnxgate::fuzz::WriteScratchFile("inputs.npz", data, size);
  auto all = onnxgate::ReadNpzFile(path);
  (void)all;
  onnxgate::NpzRequest one;
  one.wanted = std::set<std::string>{"x"};
  one.budget_bytes = 1 << 16;
  auto some = onnxgate::ReadNpzFile(path, one);
  (void)some;
  auto array =
      onnxgate::ParseNpy(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npy");
  (void)array;
  return 0;
}
