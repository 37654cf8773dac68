// Names of the fallback policies as the command line and the reports write them, and of the
// runtimes of one run.
#include "runtime/api/runtime.h"

#include <map>

namespace onnxgate {

std::vector<std::string> NamesOf(const std::vector<ValueInfo>& infos) {
  std::vector<std::string> names;
  names.reserve(infos.size());
  for (const ValueInfo& info : infos) names.push_back(info.name);
  return names;
}

const char* FallbackPolicyName(FallbackPolicy policy) {
  switch (policy) {
    case FallbackPolicy::kAllow: return "allow";
    case FallbackPolicy::kWarn: return "warn";
    case FallbackPolicy::kForbid: return "forbid";
  }
  return "?";
}

StatusOr<FallbackPolicy> FallbackPolicyFromName(const std::string& name) {
  for (FallbackPolicy p :
       {FallbackPolicy::kAllow, FallbackPolicy::kWarn, FallbackPolicy::kForbid}) {
    if (name == FallbackPolicyName(p)) return p;
  }
  return InvalidArgument("unknown fallback policy '" + name + "'; expected allow, warn or forbid");
}

std::vector<std::string> RuntimeLabels(const std::vector<const RuntimeUnderTest*>& runtimes) {
  std::vector<std::string> labels;
  std::map<std::string, int> names;
  for (const RuntimeUnderTest* r : runtimes) ++names[r->name()];
  for (const RuntimeUnderTest* r : runtimes) {
    std::string label = r->name();
    if (names[label] > 1) label += "@" + r->version();
    labels.push_back(label);
  }
  std::map<std::string, int> repeats, seen;
  for (const std::string& label : labels) ++repeats[label];
  for (std::string& label : labels) {
    if (repeats[label] > 1) label += "#" + std::to_string(++seen[label]);
  }
  return labels;
}

}  // namespace onnxgate
