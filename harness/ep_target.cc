// --ep text -> EpTarget, and whether a runtime offers every provider of it.
#include "harness/ep_target.h"

#include <algorithm>

#include "runtime/base/safe_name.h"

namespace onnxgate {

namespace {

std::vector<std::string> SplitOnSeparator(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(kEpListSeparator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::string ListOf(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace

StatusOr<EpTarget> ParseEpTarget(const std::string& text) {
  if (text.empty()) return InvalidArgument("--ep is empty: name an execution provider");
  EpTarget target;
  target.label = text;
  const std::vector<std::string> parts = SplitOnSeparator(text);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) {
      return InvalidArgument("--ep '" + text + "': part " + std::to_string(i + 1) + " of " +
                             std::to_string(parts.size()) +
                             " is empty (providers are joined by a single '+')");
    }
    if (Status safe = CheckSafeName("EP", parts[i]); !safe.ok()) {
      return safe.WithContext("--ep '" + text + "'");
    }
    if (std::find(target.providers.begin(), target.providers.end(), parts[i]) !=
        target.providers.end()) {
      return InvalidArgument("--ep '" + text + "' names provider '" + parts[i] + "' twice");
    }
    target.providers.push_back(parts[i]);
  }
  // The label names files (expectations, baselines): it must be a path component as a whole.
  if (Status safe = CheckSafeName("EP", text); !safe.ok()) return safe;
  return target;
}

std::vector<std::string> ProvidersOf(const std::string& label) {
  StatusOr<EpTarget> target = ParseEpTarget(label);
  if (!target.ok()) return {label};
  return target->providers;
}

bool RuntimeOffers(const RuntimeUnderTest& runtime, const std::string& provider) {
  const std::vector<std::string> offered = runtime.providers();
  return std::find(offered.begin(), offered.end(), provider) != offered.end() ||
         runtime.Claims(provider).ok();
}

Status CheckTargetOffered(const RuntimeUnderTest& runtime, const EpTarget& target) {
  for (const std::string& provider : target.providers) {
    if (RuntimeOffers(runtime, provider)) continue;
    const std::string in_list =
        target.providers.size() > 1 ? " in --ep '" + target.label + "'" : "";
    return InvalidArgument("unknown EP '" + provider + "'" + in_list +
                           " (this runtime offers: " + ListOf(runtime.providers()) + ")");
  }
  return OkStatus();
}

}  // namespace onnxgate
