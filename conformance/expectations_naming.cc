// ExpectationsFileName: one name per runtime and EP (see expectations_naming.h).
#include "conformance/expectations_naming.h"

#include <filesystem>
#include <system_error>

#include "runtime/base/safe_name.h"

namespace onnxgate {

ExpectationsOwner ExpectationsOwnerOf(const std::string& spec, const std::string& registry_name,
                                      const std::string& runtime_name) {
  if (spec == "builtin" || runtime_name == kBuiltinRuntimeName)
    return {ExpectationsOwner::Kind::kBuiltin, ""};
  if (!registry_name.empty()) return {ExpectationsOwner::Kind::kRegistry, registry_name};
  return {ExpectationsOwner::Kind::kOther, runtime_name};
}

StatusOr<std::string> ExpectationsFileName(const ExpectationsOwner& owner, const std::string& ep) {
  ONNXGATE_RETURN_IF_ERROR(CheckSafeName("EP", ep));
  switch (owner.kind) {
    case ExpectationsOwner::Kind::kBuiltin: return ep + ".json";
    case ExpectationsOwner::Kind::kRegistry:
      ONNXGATE_RETURN_IF_ERROR(CheckSafeName("registry runtime", owner.name));
      return owner.name + ".json";
    case ExpectationsOwner::Kind::kOther:
      ONNXGATE_RETURN_IF_ERROR(CheckSafeName("runtime name", owner.name));
      return owner.name + "." + ep + ".json";
  }
  return InvalidArgument("unknown kind of expectations owner");
}

std::string ExpectationsPathShown(const std::string& path, const std::string& root) {
  namespace fs = std::filesystem;
  if (root.empty()) return path;
  std::error_code ec;
  const fs::path canonical_root = fs::weakly_canonical(root, ec);
  if (ec) return path;
  const fs::path canonical_path = fs::weakly_canonical(path, ec);
  if (ec) return path;
  const fs::path relative = canonical_path.lexically_relative(canonical_root);
  if (relative.empty() || *relative.begin() == "..") return path;
  return relative.string();
}

}  // namespace onnxgate
