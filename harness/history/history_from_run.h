// A bench's or a gate's RunRecord as one entry of the results history (history_records.h), and
// the append of that entry to a store after the run's reports are written (`bench --history`,
// `gate --history`, `run --history`).
//
// Contract:
// - A bench run (IsLatencyOnly) gives one LatencyPoint per latency record measured (a model that
//   could not be, verdict "error", gives none), keyed by model, runtime, EP, threads, shapes,
//   optimization level and clock; a gate or run gives one
//   CasePoint per case with its verdict and error margin (CaseMargin). Both are stored with the
//   kind "bench" or "gate" (a plain run's cases count as a gate's).
// - The commit and branch come from the flags, else the environment (ResolveHistoryCommit,
//   ResolveHistoryBranch), else "unknown".
// - AppendRunToHistory never throws and never half-writes: the store appends in one transaction;
//   every error names the database.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "harness/history/history_records.h"
#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// What a run's history entry needs beyond its RunRecord.
struct HistoryTarget {
  std::string database;  // --history: a SQLite file or a postgresql:// URL; empty: no history
  std::string commit;    // --commit; empty: from the environment (ResolveHistoryCommit)
  std::string branch;    // --branch; empty: from the environment (ResolveHistoryBranch)
  std::string machine;   // the machine fingerprint's id (harness/latency/fingerprint.h)
  // Of a bench: the graph optimization level and the clock ("wall" or "cpu") it measured at,
  // which key its latency series.
  int64_t optimization_level = 0;
  std::string clock = "wall";
};

// Looks up an environment variable: null when unset. std::getenv in production.
using EnvLookup = std::function<const char*(const char*)>;
EnvLookup ProcessEnvironment();

// The flag when given, else $ONNXGATE_COMMIT, else the first of GITHUB_SHA, CI_COMMIT_SHA,
// GIT_COMMIT that is set and not empty, else "unknown".
std::string ResolveHistoryCommit(const std::string& flag, const EnvLookup& env);
// The flag when given, else $ONNXGATE_BRANCH, else the first of GITHUB_REF_NAME,
// CI_COMMIT_REF_NAME, GIT_BRANCH that is set and not empty, else "unknown".
std::string ResolveHistoryBranch(const std::string& flag, const EnvLookup& env);

// The share of its tolerance a case's worst output used (1 = at the limit, above 1 failed):
// the largest OutputToleranceShare (reports/model_summary.h) over its outputs; absent when no
// output was compared under rtol/atol.
std::optional<double> CaseMargin(const CaseRecord& record);

// Fills commit and branch where the flags left them empty (ResolveHistoryCommit/Branch).
void ResolveHistoryTarget(HistoryTarget* target, const EnvLookup& env);

// The history entry of `run`; commit and branch are taken from `target` as they are (resolve
// them first).
HistoryRun HistoryFromRun(const RunRecord& run, const HistoryTarget& target);

// A run appended: its id and the database as the store names it (a URL without its password).
struct HistoryAppended {
  int64_t run_id = 0;
  std::string database;
};

// Opens (creating when missing) the store at target.database and appends `run`. Errors name the
// database and say that the run was not recorded.
StatusOr<HistoryAppended> AppendRunToHistory(const HistoryTarget& target, const HistoryRun& run);

}  // namespace onnxgate
