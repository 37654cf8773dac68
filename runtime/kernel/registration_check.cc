// Checks registration tables against ONNX's schema registry (see registration_check.h).
#include "runtime/kernel/registration_check.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

std::string QualifiedOp(const std::string& domain, const std::string& op_type) {
  return domain.empty() ? op_type : domain + "." + op_type;
}

// "ReduceMean 13..17" (the range as written in the table, whatever its until).
std::string RangeName(const KernelDef& d) {
  return QualifiedOp(d.domain, d.op_type) + " " + std::to_string(d.since_version) + ".." +
         std::to_string(d.until_version);
}

// "ReduceMean-18".
std::string VersionName(const std::string& domain, const std::string& op_type, int version) {
  return QualifiedOp(domain, op_type) + "-" + std::to_string(version);
}

// The since-versions of `versions` that the range since..until claims.
std::vector<int> Claimed(const std::vector<int>& versions, const KernelDef& d) {
  std::vector<int> out;
  for (int v : versions) {
    if (d.since_version <= v && v <= d.until_version) out.push_back(v);
  }
  return out;
}

// Joins violations into one InvalidArgument, or OK when there are none.
Status Report(const std::string& what, const std::vector<std::string>& violations) {
  if (violations.empty()) return OkStatus();
  std::string m = std::to_string(violations.size()) + " " + what + ":";
  for (const std::string& v : violations) m += "\n  " + v;
  return InvalidArgument(m);
}

void CheckOneRange(const KernelDef& d, const RegistrationCheckOptions& options,
                   std::vector<std::string>& violations) {
  const std::string range = RangeName(d);
  const std::vector<int> versions = SinceVersions(d.domain, d.op_type);
  if (versions.empty()) {
    violations.push_back(range + ": ONNX " + std::string(OnnxReleaseVersion()) +
                         " knows no such op");
    return;
  }
  if (std::find(versions.begin(), versions.end(), d.since_version) == versions.end()) {
    violations.push_back(range + ": starts inside a schema version (" +
                         std::to_string(d.since_version) + " is not a since-version of the op)");
  }
  // The end must be where the last claimed version ends: right before the next since-version,
  // or at a since-version itself. Anything else claims opsets whose semantics nobody checked.
  const auto next = std::upper_bound(versions.begin(), versions.end(), d.until_version);
  const bool ends_at_since =
      std::find(versions.begin(), versions.end(), d.until_version) != versions.end();
  const bool ends_before_next = next != versions.end() && *next - 1 == d.until_version;
  if (!ends_at_since && !ends_before_next) {
    std::string why = range + ": ends past its checked semantics (" +
                      std::to_string(d.until_version) +
                      " is neither a since-version of the op nor the opset before one";
    if (next == versions.end()) {
      why += "; ONNX knows no version after " + VersionName(d.domain, d.op_type, versions.back()) +
             ", so the range must close at a since-version";
    } else {
      why += "; it runs into " + VersionName(d.domain, d.op_type, *next);
    }
    violations.push_back(why + ")");
  }
  const std::vector<int> claimed = Claimed(versions, d);
  auto limit = options.checked_through.find(d.domain);
  if (limit != options.checked_through.end()) {
    for (int v : claimed) {
      if (v > limit->second) {
        violations.push_back(range + ": claims " + VersionName(d.domain, d.op_type, v) +
                             ", newer than opset " + std::to_string(limit->second) +
                             " the table was checked against");
      }
    }
  }
  for (int v : claimed) {
    const std::optional<OpSpec> spec = OpSpec::Find(d.op_type, v, d.domain);
    if (!spec) continue;  // SinceVersions said it exists; nothing to compare against otherwise
    const auto allowed = spec->AllowedElementTypes();
    const std::string version = VersionName(d.domain, d.op_type, v);
    for (const TypeConstraint& c : d.type_constraints) {
      auto it = allowed.find(c.name);
      if (it == allowed.end()) {
        violations.push_back(range + ": constraint " + c.name + " is not in " + version);
        continue;
      }
      for (DataType t : c.types) {
        if (it->second.count(t) == 0) {
          violations.push_back(range + ": " + c.name + "=" + DataTypeShortName(t) +
                               " is not allowed by " + version);
        }
      }
    }
  }
}

std::vector<const KernelDef*> DefsOf(const KernelRegistry& registry) { return registry.All(); }

}  // namespace

Status CheckRegistrationRanges(const std::vector<const KernelDef*>& defs,
                               const RegistrationCheckOptions& options) {
  std::vector<std::string> violations;
  for (const KernelDef* d : defs) CheckOneRange(*d, options, violations);
  return Report("registration range violation(s) against ONNX " + std::string(OnnxReleaseVersion()),
                violations);
}

Status CheckRegistrationRanges(const KernelRegistry& registry,
                               const RegistrationCheckOptions& options) {
  return CheckRegistrationRanges(DefsOf(registry), options);
}

Status CheckRegistrationCoverage(const std::vector<const KernelDef*>& defs,
                                 const RegistrationCheckOptions& options) {
  // (domain, op) -> its defs, in a stable order so that the report is too.
  std::map<std::pair<std::string, std::string>, std::vector<const KernelDef*>> by_op;
  for (const KernelDef* d : defs) by_op[{d->domain, d->op_type}].push_back(d);

  std::vector<std::string> violations;
  for (const auto& [key, op_defs] : by_op) {
    const auto& [domain, op_type] = key;
    const std::vector<int> versions = SinceVersions(domain, op_type);
    // The claimed span: the first to the last since-version any def of the op claims.
    std::optional<int> first, last;
    for (const KernelDef* d : op_defs) {
      for (int v : Claimed(versions, *d)) {
        first = first ? std::min(*first, v) : v;
        last = last ? std::max(*last, v) : v;
      }
    }
    if (!first) continue;  // claims no schema version at all: CheckRegistrationRanges says why
    const bool narrower = options.narrower_than_schema.count(QualifiedOp(domain, op_type)) != 0;
    for (int v : versions) {
      if (v < *first || v > *last) continue;
      const std::optional<OpSpec> spec = OpSpec::Find(op_type, v, domain);
      if (!spec || spec->deprecated()) continue;  // e.g. Scatter-11: nothing to implement
      const std::string version = VersionName(domain, op_type, v);
      std::map<std::string, std::set<DataType>> covered;
      bool any = false;
      for (const KernelDef* d : op_defs) {
        if (v < d->since_version || v > d->until_version) continue;
        any = true;
        for (const TypeConstraint& c : d->type_constraints) {
          covered[c.name].insert(c.types.begin(), c.types.end());
        }
      }
      if (!any) {
        violations.push_back(version + ": no kernel, though kernels claim versions on both sides");
        continue;
      }
      if (narrower) continue;
      for (const auto& [name, types] : spec->AllowedElementTypes()) {
        std::string missing;
        for (DataType t : types) {
          if (covered[name].count(t) == 0) {
            missing += std::string(missing.empty() ? "" : ", ") + DataTypeShortName(t);
          }
        }
        if (!missing.empty()) {
          violations.push_back(version + ": no kernel for " + name + "=" + missing);
        }
      }
    }
  }
  return Report(
      "coverage gap(s) within claimed spans against ONNX " + std::string(OnnxReleaseVersion()),
      violations);
}

Status CheckRegistrationCoverage(const KernelRegistry& registry,
                                 const RegistrationCheckOptions& options) {
  return CheckRegistrationCoverage(DefsOf(registry), options);
}

}  // namespace onnxgate
