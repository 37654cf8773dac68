// Names of the fallback policies as the command line and the reports write them.
#include "runtime/api/runtime.h"

namespace onnxgate {

std::vector<std::string> NamesOf(const std::vector<ValueInfo>& infos) {
  std::vector<std::string> names;
  names.reserve(infos.size());
  for (const ValueInfo& info : infos) names.push_back(info.name);
  return names;
}

const char* FallbackPolicyName(FallbackPolicy policy) {
  switch (policy) {
    case FallbackPolicy::kAllow:
      return "allow";
    case FallbackPolicy::kWarn:
      return "warn";
    case FallbackPolicy::kForbid:
      return "forbid";
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

}  // namespace onnxgate
