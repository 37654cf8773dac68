// The probe: fork, open the plugin in the child, ask, send the facts back, exit.
#include "runtime/plugin/plugin_probe.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

#include "runtime/base/child_process.h"
#include "runtime/plugin/plugin_in_process.h"

namespace onnxgate {

namespace {

// The first byte of an answer: the facts follow, or the error that opening the plugin gave.
constexpr char kFactsAnswer = 'F';
constexpr char kErrorAnswer = 'E';

std::string ErrorAnswer(const Status& status) {
  PluginFacts carrier;  // an error travels as a provider's claims status, with
                        // its checks
  carrier.name = "error";
  carrier.per_provider["error"].claims_status = status;
  return kErrorAnswer + EncodePluginFacts(carrier);
}

PluginProviderFacts AskProvider(const RuntimeUnderTest& runtime, const std::string& provider) {
  PluginProviderFacts p;
  StatusOr<std::vector<OpClaim>> claims = runtime.Claims(provider);
  p.claims_status = claims.status();
  if (claims.ok()) p.claims = std::move(claims).value();
  StatusOr<int> threads = runtime.MaxIntraOpThreads(provider);
  p.threads_status = threads.status();
  if (threads.ok()) p.max_threads = *threads;
  p.availability = runtime.ProviderAvailability(provider);
  return p;
}

// Runs in the probe child: everything the plugin's code does happens here.
std::string Answer(const std::string& path, const RuntimeOptions& options,
                   const PluginProbeLimits& limits, const std::vector<std::string>& extra) {
  if (limits.memory_limit_bytes > 0) {
    const rlimit limit{limits.memory_limit_bytes, limits.memory_limit_bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  try {
    auto opened = OpenPluginInProcess(path, options);
    if (!opened.ok()) return ErrorAnswer(opened.status());
    const RuntimeUnderTest& runtime = **opened;
    PluginFacts facts;
    facts.name = runtime.name();
    facts.version = runtime.version();
    facts.needs_case_isolation = runtime.NeedsCaseIsolation();
    facts.accepted = runtime.accepted_versions();
    facts.providers = runtime.providers();
    for (const std::string& p : facts.providers) facts.per_provider[p] = AskProvider(runtime, p);
    for (const std::string& p : extra) facts.per_provider[p] = AskProvider(runtime, p);
    return kFactsAnswer + EncodePluginFacts(facts);
  } catch (const std::bad_alloc&) {
    return ErrorAnswer(Internal("plugin " + path + ": probe ran out of its memory limit (" +
                                std::to_string(limits.memory_limit_bytes >> 20) + " MiB)"));
  } catch (...) {
    return ErrorAnswer(Internal("plugin " + path + ": probe: the plugin threw an exception"));
  }
}

std::string SignalName(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

// The probe's answer read back; `where` is "plugin <path>: probe".
StatusOr<PluginFacts> ReadAnswer(const std::string& output, const std::string& where,
                                 const std::string& asking) {
  if (output.empty()) return Internal(where + " exited with code 0 before answering" + asking);
  const char kind = output[0];
  auto facts = DecodePluginFacts(output.substr(1));
  if (!facts.ok() || (kind != kFactsAnswer && kind != kErrorAnswer)) {
    return Internal(where + " answered nonsense (" + std::to_string(output.size()) + " bytes): " +
                    (facts.ok() ? std::string("no answer kind") : facts.status().message()));
  }
  if (kind == kFactsAnswer) return facts;
  const auto error = facts->per_provider.find("error");
  if (error == facts->per_provider.end() || error->second.claims_status.ok()) {
    return Internal(where + " answered nonsense: an error without a status");
  }
  return error->second.claims_status;
}

}  // namespace

StatusOr<PluginFacts> ProbePlugin(const std::string& path, const RuntimeOptions& options,
                                  const PluginProbeLimits& limits,
                                  const std::vector<std::string>& extra_providers) {
  const std::string where = "plugin " + path + ": probe";
  const int timeout = std::max(1, limits.timeout_seconds);
  // Nothing buffered may be written twice: by the parent, and by a plugin that calls exit().
  std::fflush(nullptr);
  const ChildOutcome outcome =
      RunInChildProcess([&] { return Answer(path, options, limits, extra_providers); }, timeout);
  const std::string asking = " (opening the plugin and asking it for its facts)";
  switch (outcome.end) {
    case ChildOutcome::End::kNotStarted:
      return Internal(where + " did not start: " + outcome.error);
    case ChildOutcome::End::kTimedOut:
      return Internal(where + " timed out after " + std::to_string(timeout) + " s" + asking);
    case ChildOutcome::End::kSignaled:
      return Internal(where + " killed by " + SignalName(outcome.signal) + asking);
    case ChildOutcome::End::kExited:
      if (outcome.exit_code != 0) {
        return Internal(where + " exited with code " + std::to_string(outcome.exit_code) +
                        " before answering" + asking);
      }
      return ReadAnswer(outcome.output, where, asking);
  }
  return Internal(where + ": unknown outcome");
}

}  // namespace onnxgate
