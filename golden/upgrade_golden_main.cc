// onnxgate-upgrade-golden: rewrites goldens of format 1 (no checksums) in the current format,
// content and provenance unchanged (golden/golden_upgrade.h). Arguments are golden files or
// folders (every *.h5 below them, in name order). Exit 0 when every golden was upgraded or already
// current, 1 when some could not be (each named with its error), 2 on bad usage.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "golden/golden_upgrade.h"

namespace {

namespace fs = std::filesystem;

constexpr char kUsage[] =
    "usage: onnxgate-upgrade-golden <golden.h5 or folder>...\n"
    "Rewrites goldens of format 1 (no checksums) in the current checksummed format, keeping\n"
    "their content and provenance (producer, model hashes, created, source, values) exactly.\n"
    "Folders are searched for *.h5 files. Goldens that already have checksums are left alone.\n";

// The goldens named by `arg`: the file itself, or every *.h5 below a folder, sorted.
std::vector<std::string> GoldensOf(const std::string& arg, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(arg, ec)) return {arg};
  std::vector<std::string> out;
  fs::recursive_directory_iterator it(arg, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".h5")
      out.push_back(it->path().string());
  }
  if (ec) *error = arg + ": " + ec.message();
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  int upgraded = 0, current = 0, failed = 0;
  for (int i = 1; i < argc; ++i) {
    std::string error;
    for (const std::string& path : GoldensOf(argv[i], &error)) {
      auto result = onnxgate::UpgradeGolden(path);
      if (!result.ok()) {
        std::fprintf(stderr, "error: %s\n", result.status().ToString().c_str());
        ++failed;
      } else if (*result == onnxgate::GoldenUpgrade::kUpgraded) {
        ++upgraded;
      } else {
        ++current;
      }
    }
    if (!error.empty()) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      ++failed;
    }
  }
  std::printf("upgraded %d, already current %d, failed %d\n", upgraded, current, failed);
  return failed > 0 ? 1 : 0;
}
