// One target of a run, a gate, a bench or a model check: the text of one --ep, which names one
// execution provider ("dnnl") or a priority list of them joined by '+'
// ("OpenVINOExecutionProvider+CPUExecutionProvider"). The runtime gets the list as
// LoadOptions::providers, in that order; a node placed on any provider but the first is a
// fallback. The label stays the text as given: reports, expectations keys and files, baselines
// and reproducer lines name the target by it. Repeating --ep makes separate targets.
#pragma once

#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr char kEpListSeparator = '+';

struct EpTarget {
  std::string label;                   // as given
  std::vector<std::string> providers;  // priority order; at least one, no repeats
  const std::string& first() const { return providers.front(); }
};

// InvalidArgument naming the text when it is empty, when one of its '+'-separated parts is empty
// ("part 2 of 3 is empty"), when a provider repeats, or when the label or a provider could not
// be one path component (CheckSafeName).
StatusOr<EpTarget> ParseEpTarget(const std::string& text);

// The providers of a label that ParseEpTarget accepted; for one it refuses, the label alone (the
// runtime then names what is wrong with it at load).
std::vector<std::string> ProvidersOf(const std::string& label);

// Whether `runtime` offers `provider`: it lists it, or can say what it claims (a plugin may list
// only its main providers).
bool RuntimeOffers(const RuntimeUnderTest& runtime, const std::string& provider);

// OK when the runtime offers every provider of `target`; otherwise InvalidArgument naming the
// first unknown provider, the target when it is a list, and the providers the runtime lists.
Status CheckTargetOffered(const RuntimeUnderTest& runtime, const EpTarget& target);

}  // namespace onnxgate
