// Atomic file writes through a temporary sibling and rename(2).
#include "runtime/base/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace onnxgate {

namespace fs = std::filesystem;

Status WriteThroughTempFile(const std::string& path,
                            const std::function<Status(const std::string&)>& write) {
  std::error_code ec;
  fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) {
    return NotFound("cannot create folder " + target.parent_path().string() + ": " + ec.message());
  }
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  Status st = write(temp);
  if (!st.ok()) {
    fs::remove(temp, ec);
    return st;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    fs::remove(temp, ec);
    return Unavailable("cannot rename " + temp + " to " + path + ": " + why);
  }
  return OkStatus();
}

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  return WriteThroughTempFile(path, [&](const std::string& temp) -> Status {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return NotFound("cannot open " + temp + " for writing: " + std::strerror(errno));
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) return DataLoss("writing " + temp + " failed: " + std::strerror(errno));
    return OkStatus();
  });
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace onnxgate
