// What the SQLite and PostgreSQL stores share between the records and their rows: the checks a
// point passes before it is written, the columns a record binds to and is read back from (in the
// order of history_schema.h's statements), and the query's filters.
//
// A store supplies a Binder with Text(std::string), Int(int64_t), Real(double) and
// NullableReal(std::optional<double>), and a Row with the same getters by column index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/history/history_records.h"
#include "harness/history/results_store.h"
#include "runtime/base/status.h"

namespace onnxgate {

// InvalidArgument naming the point (its position in the run and its key) when a value cannot be
// stored: a NaN or infinite time or cv, a negative sample count, a NaN margin.
Status ValidateLatencyPoint(const LatencyPoint& point, size_t index);
Status ValidateCasePoint(const CasePoint& point, size_t index);

// The values of the read statements' $1..$5.
std::vector<std::string> QueryParameters(const HistoryQuery& query);
// Whether `name` matches the query's glob (fnmatch; an empty glob matches everything).
bool MatchesModelGlob(const HistoryQuery& query, const std::string& name);

template <typename Binder>
void BindRun(Binder& b, const HistoryContext& c) {
  b.Text(c.kind);
  b.Text(c.commit);
  b.Text(c.branch);
  b.Text(c.tool_version);
  b.Text(c.runtime);
  b.Text(c.runtime_version);
  b.Text(c.machine);
  b.Text(c.recorded);
}

template <typename Binder>
void BindLatency(Binder& b, int64_t run_id, const LatencyPoint& p) {
  b.Int(run_id);
  b.Text(p.key.model);
  b.Text(p.key.runtime);
  b.Text(p.key.ep);
  b.Int(p.key.threads);
  b.Text(p.key.shapes);
  b.Int(p.key.optimization_level);
  b.Text(p.key.clock);
  b.Text(p.model_sha256);
  b.Int(p.samples);
  b.Real(p.median_ms);
  b.Real(p.min_ms);
  b.Real(p.p90_ms);
  b.Real(p.mean_ms);
  b.Real(p.cv);
}

template <typename Binder>
void BindCase(Binder& b, int64_t run_id, const CasePoint& p) {
  b.Int(run_id);
  b.Text(p.key.suite);
  b.Text(p.key.case_name);
  b.Text(p.key.runtime);
  b.Text(p.key.ep);
  b.Text(p.verdict);
  b.NullableReal(p.margin);
}

// The run's columns 0..8, then the point's from column 9.
inline constexpr int kFirstPointColumn = 9;

template <typename Row>
HistoryContext ContextFromRow(const Row& row) {
  HistoryContext c;
  c.kind = row.Text(1);
  c.commit = row.Text(2);
  c.branch = row.Text(3);
  c.tool_version = row.Text(4);
  c.runtime = row.Text(5);
  c.runtime_version = row.Text(6);
  c.machine = row.Text(7);
  c.recorded = row.Text(8);
  return c;
}

template <typename Row>
Stored<LatencyPoint> LatencyFromRow(const Row& row) {
  Stored<LatencyPoint> s;
  s.run_id = row.Int(0);
  s.context = ContextFromRow(row);
  LatencyPoint& p = s.point;
  const int c = kFirstPointColumn;
  p.key.model = row.Text(c);
  p.key.runtime = row.Text(c + 1);
  p.key.ep = row.Text(c + 2);
  p.key.threads = row.Int(c + 3);
  p.key.shapes = row.Text(c + 4);
  p.key.optimization_level = row.Int(c + 5);
  p.key.clock = row.Text(c + 6);
  p.model_sha256 = row.Text(c + 7);
  p.samples = row.Int(c + 8);
  p.median_ms = row.Real(c + 9);
  p.min_ms = row.Real(c + 10);
  p.p90_ms = row.Real(c + 11);
  p.mean_ms = row.Real(c + 12);
  p.cv = row.Real(c + 13);
  return s;
}

template <typename Row>
Stored<CasePoint> CaseFromRow(const Row& row) {
  Stored<CasePoint> s;
  s.run_id = row.Int(0);
  s.context = ContextFromRow(row);
  CasePoint& p = s.point;
  const int c = kFirstPointColumn;
  p.key.suite = row.Text(c);
  p.key.case_name = row.Text(c + 1);
  p.key.runtime = row.Text(c + 2);
  p.key.ep = row.Text(c + 3);
  p.verdict = row.Text(c + 4);
  p.margin = row.NullableReal(c + 5);
  return s;
}

}  // namespace onnxgate
