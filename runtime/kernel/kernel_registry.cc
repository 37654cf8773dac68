// KernelRegistry: registration with overlap checks, and lookup by version and bound types.
#include "runtime/kernel/kernel_registry.h"

#include <algorithm>

#include "runtime/onnx/type_binding.h"

namespace onnxgate {

namespace {

std::string VersionRange(const KernelDef& d) {
  std::string s = d.op_type + "-" + std::to_string(d.since_version);
  if (d.until_version != d.since_version) s += ".." + std::to_string(d.until_version);
  return s;
}

std::string QualifiedOp(const std::string& domain, const std::string& op_type) {
  return domain.empty() ? op_type : domain + "." + op_type;
}

const TypeConstraint* FindConstraint(const KernelDef& d, const std::string& name) {
  for (const auto& c : d.type_constraints) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// Two defs claim a common node when every constraint they both name shares a type.
bool TypesOverlap(const KernelDef& a, const KernelDef& b) {
  for (const auto& ca : a.type_constraints) {
    const TypeConstraint* cb = FindConstraint(b, ca.name);
    if (cb == nullptr) continue;
    bool shared = std::any_of(ca.types.begin(), ca.types.end(), [&](DataType t) {
      return std::find(cb->types.begin(), cb->types.end(), t) != cb->types.end();
    });
    if (!shared) return false;
  }
  return true;
}

}  // namespace

Status KernelRegistry::Register(KernelDef def) {
  if (def.since_version < 1 || def.until_version < def.since_version || !def.factory) {
    return InvalidArgument("kernel " + VersionRange(def) + " of " +
                           QualifiedOp(def.domain, def.op_type) +
                           " has an empty version range or no factory");
  }
  // Ranges are closed at the last opset the kernel was checked against (kernel_def.h); a
  // huge until_version is an open-ended claim on versions nobody has seen yet.
  if (def.until_version > kMaxPlausibleOpset) {
    return InvalidArgument("kernel " + VersionRange(def) + " of " +
                           QualifiedOp(def.domain, def.op_type) + " claims up to version " +
                           std::to_string(def.until_version) +
                           ", which is no real opset; close the range at the last version the "
                           "kernel was checked against");
  }
  for (const KernelDef& other : defs_) {
    if (other.domain != def.domain || other.op_type != def.op_type) continue;
    bool versions_overlap =
        def.since_version <= other.until_version && other.since_version <= def.until_version;
    if (versions_overlap && TypesOverlap(def, other)) {
      return InvalidArgument("kernel " + VersionRange(def) + " overlaps the registered kernel " +
                             VersionRange(other) + " of " + QualifiedOp(def.domain, def.op_type));
    }
  }
  defs_.push_back(std::move(def));
  return OkStatus();
}

StatusOr<const KernelDef*> KernelRegistry::Find(
    const std::string& domain, const std::string& op_type, int version,
    const std::map<std::string, DataType>& bound_types) const {
  std::string op = QualifiedOp(domain, op_type) + "-" + std::to_string(version);
  std::vector<std::string> versions;
  std::string type_reason;
  for (const KernelDef& d : defs_) {
    if (d.domain != domain || d.op_type != op_type) continue;
    versions.push_back(VersionRange(d));
    if (version < d.since_version || version > d.until_version) continue;
    bool accepted = true;
    for (const auto& c : d.type_constraints) {
      auto it = bound_types.find(c.name);
      if (it == bound_types.end()) continue;
      if (std::find(c.types.begin(), c.types.end(), it->second) == c.types.end()) {
        accepted = false;
        std::string allowed;
        for (DataType t : c.types)
          allowed += std::string(allowed.empty() ? "" : ", ") + DataTypeShortName(t);
        type_reason = c.name + "=" + DataTypeShortName(it->second) + " is not among " + allowed;
        break;
      }
    }
    if (accepted) return &d;
  }
  if (versions.empty()) return Unimplemented("no kernel for " + op);
  if (!type_reason.empty()) {
    return Unimplemented("no kernel for " + op + " with " + BoundTypesToString(bound_types) + " (" +
                         type_reason + ")");
  }
  std::string have;
  for (const auto& v : versions) have += std::string(have.empty() ? "" : ", ") + v;
  return Unimplemented("no kernel for " + op + " (kernels: " + have + ")");
}

std::vector<const KernelDef*> KernelRegistry::All() const {
  std::vector<const KernelDef*> out;
  for (const KernelDef& d : defs_) out.push_back(&d);
  return out;
}

}  // namespace onnxgate
