// A plugin as a RuntimeUnderTest: facts from a probe, models from the plugin opened lazily.
#include "runtime/plugin/plugin_runtime.h"

#include <filesystem>
#include <mutex>

#include "runtime/base/safe_name.h"
#include "runtime/plugin/plugin_in_process.h"

namespace onnxgate {

namespace {

class ProbedPluginRuntime : public RuntimeUnderTest {
 public:
  ProbedPluginRuntime(std::string path, RuntimeOptions options, PluginProbeLimits limits,
                      PluginFacts facts)
      : path_(std::move(path)),
        options_(std::move(options)),
        limits_(limits),
        facts_(std::move(facts)) {}

  std::string name() const override { return facts_.name; }
  std::string version() const override { return facts_.version; }
  AcceptedVersions accepted_versions() const override { return facts_.accepted; }
  std::vector<std::string> providers() const override { return facts_.providers; }
  bool NeedsCaseIsolation() const override { return facts_.needs_case_isolation; }

  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                              const LoadOptions& options) const override {
    ONNXGATE_ASSIGN_OR_RETURN(const RuntimeUnderTest* opened, Opened());
    return opened->Load(model_path, options);
  }

  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const override {
    ONNXGATE_ASSIGN_OR_RETURN(const PluginProviderFacts* p, FactsOf(provider));
    if (!p->claims_status.ok()) return p->claims_status;
    return p->claims;
  }

  StatusOr<int> MaxIntraOpThreads(const std::string& provider) const override {
    ONNXGATE_ASSIGN_OR_RETURN(const PluginProviderFacts* p, FactsOf(provider));
    if (!p->threads_status.ok()) return p->threads_status;
    return p->max_threads;
  }

  // As the probe found it. A provider whose facts cannot be had (an unsafe name, a probe that
  // failed) counts as available: Load reports what is wrong with it.
  Status ProviderAvailability(const std::string& provider) const override {
    auto p = FactsOf(provider);
    return p.ok() ? (*p)->availability : OkStatus();
  }

 private:
  // The plugin opened in this process, on first use.
  StatusOr<const RuntimeUnderTest*> Opened() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (opened_ == nullptr && open_error_.ok()) {
      auto opened = OpenPluginInProcess(path_, options_);
      if (opened.ok()) {
        opened_ = std::move(opened).value();
      } else {
        open_error_ = opened.status();
      }
    }
    if (opened_ == nullptr) return open_error_;
    return opened_.get();
  }

  // A provider's facts: from the first probe, else asked once (of the plugin if this process has
  // opened it, else of a probe of its own) and kept.
  StatusOr<const PluginProviderFacts*> FactsOf(const std::string& provider) const {
    if (auto it = facts_.per_provider.find(provider); it != facts_.per_provider.end()) {
      return &it->second;
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = asked_.find(provider); it != asked_.end()) return &it->second;
    ONNXGATE_RETURN_IF_ERROR(CheckSafeName("provider", provider));
    PluginProviderFacts p;
    if (opened_ != nullptr) {
      auto claims = opened_->Claims(provider);
      p.claims_status = claims.status();
      if (claims.ok()) p.claims = std::move(claims).value();
      auto threads = opened_->MaxIntraOpThreads(provider);
      p.threads_status = threads.status();
      if (threads.ok()) p.max_threads = *threads;
      p.availability = opened_->ProviderAvailability(provider);
    } else {
      ONNXGATE_ASSIGN_OR_RETURN(PluginFacts probed,
                                ProbePlugin(path_, options_, limits_, {provider}));
      auto it = probed.per_provider.find(provider);
      if (it == probed.per_provider.end()) {
        return Internal("plugin " + path_ + ": probe did not answer for provider '" + provider +
                        "'");
      }
      p = std::move(it->second);
    }
    return &asked_.emplace(provider, std::move(p)).first->second;
  }

  const std::string path_;
  const RuntimeOptions options_;
  const PluginProbeLimits limits_;
  const PluginFacts facts_;
  mutable std::mutex mu_;
  mutable std::unique_ptr<RuntimeUnderTest> opened_;
  mutable Status open_error_;
  mutable std::map<std::string, PluginProviderFacts> asked_;
};

}  // namespace

StatusOr<std::unique_ptr<RuntimeUnderTest>> LoadPluginRuntime(const std::string& path,
                                                              const RuntimeOptions& options,
                                                              const PluginProbeLimits& limits) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return NotFound("plugin " + path + ": no such file");
  }
  ONNXGATE_ASSIGN_OR_RETURN(PluginFacts facts, ProbePlugin(path, options, limits));
  return std::unique_ptr<RuntimeUnderTest>(
      std::make_unique<ProbedPluginRuntime>(path, options, limits, std::move(facts)));
}

}  // namespace onnxgate
