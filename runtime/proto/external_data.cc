// External data: the location must stay inside the model's folder (relative, no "..", no symbolic
// link on the way) and offset/length must lie inside the file; only then are the bytes read.
#include "runtime/proto/external_data.h"

#include <fcntl.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

namespace onnxgate {

namespace {

std::string Label(const onnx::TensorProto& proto) {
  return proto.name().empty() ? std::string("unnamed tensor") : "tensor '" + proto.name() + "'";
}

// Parses a non-negative decimal integer; nullopt for anything else (signs, spaces, overflow).
std::optional<uint64_t> ParseSize(const std::string& s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

// Splits a relative location into its components, refusing what could leave the folder.
StatusOr<std::vector<std::string>> SplitLocation(const std::string& label, const std::string& loc) {
  auto refuse = [&](const std::string& why) {
    return InvalidArgument(label + ": external data location '" + loc + "' " + why);
  };
  if (loc.empty()) return refuse("is empty");
  if (loc.find('\0') != std::string::npos) return refuse("contains a NUL character");
  if (loc[0] == '/' || loc[0] == '\\') {
    return refuse("is absolute; it must be relative to the model's folder");
  }
  if (loc.size() >= 2 && loc[1] == ':') {
    return refuse("has a drive letter; it must be relative to the model's folder");
  }
  std::vector<std::string> parts;
  std::string part;
  for (size_t i = 0; i <= loc.size(); ++i) {
    // Backslashes count as separators too, so "..\\x" written on Windows is caught.
    if (i == loc.size() || loc[i] == '/' || loc[i] == '\\') {
      if (part == "..") return refuse("contains '..'; it must stay inside the model's folder");
      if (!part.empty() && part != ".") parts.push_back(part);
      part.clear();
    } else {
      part += loc[i];
    }
  }
  if (parts.empty()) return refuse("names no file");
  return parts;
}

// Where the bytes of an external tensor are, after every rule has been checked.
struct Resolved {
  std::string path;
  std::string location;
  uint64_t offset = 0;
  uint64_t count = 0;
};

Status CheckBounds(const std::string& label, const std::string& location, uint64_t offset,
                   std::optional<uint64_t> length, uint64_t size, uint64_t* count) {
  if (offset > size) {
    return DataLoss(label + ": external data offset " + std::to_string(offset) +
                    " is past the end of '" + location + "' (" + std::to_string(size) + " bytes)");
  }
  *count = length ? *length : size - offset;
  if (*count > size - offset) {
    return DataLoss(label + ": external data offset " + std::to_string(offset) + " + length " +
                    std::to_string(*count) + " exceeds the size of '" + location + "' (" +
                    std::to_string(size) + " bytes)");
  }
  return OkStatus();
}

StatusOr<Resolved> Resolve(const onnx::TensorProto& proto, const std::string& base_dir) {
  const std::string label = Label(proto);
  if (base_dir.empty()) {
    return InvalidArgument(label + ": external data needs the model's folder to resolve against");
  }
  std::map<std::string, std::string> keys;
  for (const auto& entry : proto.external_data()) {
    if (!keys.emplace(entry.key(), entry.value()).second) {
      return InvalidArgument(label + ": external_data key '" + entry.key() + "' appears twice");
    }
  }
  auto loc_it = keys.find("location");
  if (loc_it == keys.end()) return InvalidArgument(label + ": external_data has no 'location' key");
  Resolved r;
  r.location = loc_it->second;

  std::optional<uint64_t> length;
  for (const char* key : {"offset", "length"}) {
    auto it = keys.find(key);
    if (it == keys.end()) continue;
    std::optional<uint64_t> v = ParseSize(it->second);
    if (!v) {
      return InvalidArgument(label + ": external_data " + key + " '" + it->second +
                             "' is not a non-negative integer");
    }
    if (std::string(key) == "offset") {
      r.offset = *v;
    } else {
      length = *v;
    }
  }

  ASSIGN_OR_RETURN(std::vector<std::string> parts, SplitLocation(label, r.location));
  // Walk the components with lstat so that a symbolic link anywhere below base_dir is refused,
  // whether it points inside the folder or not.
  r.path = base_dir;
  uint64_t size = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    r.path += "/" + parts[i];
    struct stat st;
    if (lstat(r.path.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) {
        return NotFound(label + ": external data file '" + r.location + "' not found in '" +
                        base_dir + "'");
      }
      return NotFound(label + ": cannot access external data file '" + r.path +
                      "': " + std::strerror(errno));
    }
    if (S_ISLNK(st.st_mode)) {
      return InvalidArgument(label + ": external data location '" + r.location +
                             "' goes through the symbolic link '" + r.path +
                             "'; links may lead outside the model's folder");
    }
    bool last = i + 1 == parts.size();
    if (last ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)) {
      return InvalidArgument(label + ": external data location '" + r.location + "': '" + r.path +
                             "' is not a " + (last ? "regular file" : "folder"));
    }
    size = static_cast<uint64_t>(st.st_size);
  }
  RETURN_IF_ERROR(CheckBounds(label, r.location, r.offset, length, size, &r.count));
  return r;
}

}  // namespace

Status CheckExternalData(const onnx::TensorProto& proto, const std::string& base_dir) {
  return Resolve(proto, base_dir).status();
}

StatusOr<std::string> ReadExternalData(const onnx::TensorProto& proto,
                                       const std::string& base_dir) {
  ASSIGN_OR_RETURN(Resolved r, Resolve(proto, base_dir));
  const std::string label = Label(proto);
  // O_NOFOLLOW closes the window between the lstat walk and the open.
  int fd = open(r.path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return NotFound(label + ": cannot open external data file '" + r.path +
                    "': " + std::strerror(errno));
  }
  std::string bytes(r.count, '\0');
  uint64_t done = 0;
  while (done < r.count) {
    ssize_t n = pread(fd, bytes.data() + done, r.count - done, static_cast<off_t>(r.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      // The file shrank since it was checked.
      return DataLoss(label + ": reading " + std::to_string(r.count) + " bytes at offset " +
                      std::to_string(r.offset) + " from '" + r.location + "' failed after " +
                      std::to_string(done) + " bytes");
    }
    done += static_cast<uint64_t>(n);
  }
  close(fd);
  return bytes;
}

}  // namespace onnxgate
