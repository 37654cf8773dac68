// The scratch folder of one fuzzing process.
#include "fuzz/fuzz_util.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace onnxgate::fuzz {

namespace {

std::string MakeScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/onnxgate_fuzz_XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) std::abort();
  return templ;
}

}  // namespace

const std::string& ScratchDir() {
  // Never destroyed, so the exit handler that removes the folder can still read its name.
  static const std::string* const dir = [] {
    auto* made = new std::string(MakeScratchDir());
    std::atexit([] { std::filesystem::remove_all(ScratchDir()); });
    return made;
  }();
  return *dir;
}

std::string WriteScratchFile(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = ScratchDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) std::abort();  // the scratch folder itself failed: not a finding
  return path;
}

}  // namespace onnxgate::fuzz
