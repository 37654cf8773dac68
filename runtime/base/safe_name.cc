// Character-class check of path-component names.
#include "runtime/base/safe_name.h"

#include <cstdio>

namespace onnxgate {

namespace {

constexpr size_t kMaxNameLength = 128;

bool Allowed(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-' || c == '+';
}

// The name as it can be shown on one line: bytes outside printable ASCII as \xNN.
std::string Printable(const std::string& name) {
  std::string out;
  for (unsigned char c : name.substr(0, kMaxNameLength + 16)) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace

Status CheckSafeName(const std::string& kind, const std::string& name) {
  auto refuse = [&](const std::string& why) {
    return InvalidArgument(kind + " name '" + Printable(name) + "' " + why);
  };
  if (name.empty()) return refuse("is empty");
  if (name.size() > kMaxNameLength) {
    return refuse("is longer than " + std::to_string(kMaxNameLength) + " characters");
  }
  if (name[0] == '.' || name[0] == '-') return refuse("must not start with '.' or '-'");
  for (char c : name) {
    if (!Allowed(c)) {
      return refuse("may hold only letters, digits, '.', '_', '-' and '+' (it names a file)");
    }
  }
  return OkStatus();
}

}  // namespace onnxgate
