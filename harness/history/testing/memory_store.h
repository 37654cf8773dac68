// A ResultsStore in memory, for tests of what reads and writes the history without a database:
// runs numbered from 1 in append order; queries filter on kind, branch, machine, runtime, EP and a
// glob (fnmatch) on the model or case name. `fail_next` makes the next call fail as a database
// error would.
#pragma once

#include <fnmatch.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/history/results_store.h"

namespace onnxgate {

class MemoryResultsStore : public ResultsStore {
 public:
  explicit MemoryResultsStore(std::string name = "memory") : name_(std::move(name)) {}

  std::string name() const override { return name_; }

  StatusOr<int64_t> Append(const HistoryRun& run) override {
    if (Status failure = TakeFailure(); !failure.ok()) return failure;
    runs_.push_back(run);
    return static_cast<int64_t>(runs_.size());
  }

  StatusOr<std::vector<Stored<LatencyPoint>>> ReadLatency(const HistoryQuery& query) override {
    if (Status failure = TakeFailure(); !failure.ok()) return failure;
    std::vector<Stored<LatencyPoint>> out;
    for (size_t i = 0; i < runs_.size(); ++i) {
      if (!RunMatches(runs_[i].context, query)) continue;
      for (const LatencyPoint& p : runs_[i].latency) {
        if (PointMatches(p.key.model, p.key.runtime, p.key.ep, query))
          out.push_back({static_cast<int64_t>(i + 1), runs_[i].context, p});
      }
    }
    return out;
  }

  StatusOr<std::vector<Stored<CasePoint>>> ReadCases(const HistoryQuery& query) override {
    if (Status failure = TakeFailure(); !failure.ok()) return failure;
    std::vector<Stored<CasePoint>> out;
    for (size_t i = 0; i < runs_.size(); ++i) {
      if (!RunMatches(runs_[i].context, query)) continue;
      for (const CasePoint& p : runs_[i].cases) {
        if (PointMatches(p.key.case_name, p.key.runtime, p.key.ep, query))
          out.push_back({static_cast<int64_t>(i + 1), runs_[i].context, p});
      }
    }
    return out;
  }

  const std::vector<HistoryRun>& runs() const { return runs_; }
  void fail_next(Status status) { failure_ = std::move(status); }

 private:
  static bool Matches(const std::string& want, const std::string& have) {
    return want.empty() || want == have;
  }
  static bool RunMatches(const HistoryContext& c, const HistoryQuery& q) {
    return Matches(q.kind, c.kind) && Matches(q.branch, c.branch) && Matches(q.machine, c.machine);
  }
  static bool PointMatches(const std::string& name, const std::string& runtime,
                           const std::string& ep, const HistoryQuery& q) {
    const bool glob = q.model_glob.empty() || fnmatch(q.model_glob.c_str(), name.c_str(), 0) == 0;
    return glob && Matches(q.runtime, runtime) && Matches(q.ep, ep);
  }
  Status TakeFailure() { return std::exchange(failure_, OkStatus()); }

  std::string name_;
  std::vector<HistoryRun> runs_;
  Status failure_;
};

}  // namespace onnxgate
