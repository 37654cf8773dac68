// Error metrics of an actual tensor against an expected one, for comparisons where elementwise
// allclose says nothing useful (a quantized model against its float parent): max/mean/p99
// absolute and relative error, cosine similarity, SQNR in dB, top-k agreement of
// classification-like outputs and, for integers, the largest difference in steps. Thresholds on
// them ("cosine" >= 0.999, "top1" >= 0.99, "max_abs" <= 0.1) judge a value instead of allclose,
// with the margin to each threshold for reports.
//
// Rules:
// - Computed on tensors of the same shape whose dtypes are both numeric (floats of any width,
//   integers); values are read as double. Anything else (strings, bools, complex, sequences, a
//   shape difference) has no metrics (`computed` false, `why_not` says why).
// - Elements equal on both sides (equal infinities and NaN against NaN included) add no error
//   and are left out of cosine and SQNR sums. An unmatched NaN or infinity makes every error inf,
//   cosine NaN and SQNR -inf, so that every threshold fails.
// - Relative errors are |a - e| / |e| over elements whose expected value is not 0; p99 is the
//   nearest-rank 99th percentile (the value at rank ceil(0.99 n)).
// - Cosine is 1 when both tensors are all zero and 0 when only one is; SQNR is
//   10 log10(sum e^2 / sum (a - e)^2): +inf when nothing differs.
// - Top-k agreement treats the last axis as the classes (a rank-0 tensor has no classes): the
//   share of rows whose k largest classes are the same set on both sides. Ties rank the lower
//   class index first; NaN ranks below every number. Not computed where a row has fewer than k
//   classes or the dtype is an integer. An empty tensor agrees fully.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/base/value.h"

namespace onnxgate {

struct TopKAgreement {
  int k = 1;
  double agreement = 1;  // share of rows in [0, 1]
};

struct TensorMetrics {
  bool computed = false;
  std::string why_not;   // when not computed
  bool integer = false;  // both sides integers: max_steps is meaningful
  int64_t elements = 0;
  double max_abs = 0, mean_abs = 0, p99_abs = 0;
  double max_rel = 0, mean_rel = 0, p99_rel = 0;
  double cosine = 1;
  double sqnr_db = 0;
  double max_steps = 0;              // integers: the largest |a - e|
  std::vector<TopKAgreement> top_k;  // one per k asked for where computable, ascending k
  // A value of a metric by its threshold name ("cosine", "top5", "int_steps"); false when this
  // tensor has no such metric.
  bool Lookup(const std::string& name, double* value) const;
};

// `top_ks`: the k of each top-k agreement wanted (each >= 1).
TensorMetrics ComputeTensorMetrics(const Tensor& actual, const Tensor& expected,
                                   const std::vector<int>& top_ks);
// A tensor value's metrics; other kinds of values have none.
TensorMetrics ComputeValueMetrics(const Value& actual, const Value& expected,
                                  const std::vector<int>& top_ks);

// One threshold. Lower bounds: cosine (in [-1, 1]), sqnr_db (finite), top<K> (K >= 1, a share in
// [0, 1]). Upper bounds (>= 0, finite): max_abs, mean_abs, p99_abs, max_rel, mean_rel, p99_rel,
// int_steps (a whole number).
struct MetricThreshold {
  std::string name;
  double limit = 0;
  bool at_least = false;  // a lower bound (cosine, sqnr_db, top<K>); else an upper bound
};

struct MetricThresholds {
  std::vector<MetricThreshold> items;  // at most one per name, in the order given
  bool empty() const { return items.empty(); }
  // The k of every top<K> threshold, ascending, with `extra` (when > 0) merged in.
  std::vector<int> TopKs(int extra = 0) const;
  // {"cosine": 0.999, "top1": 0.99}, for messages.
  std::string ToString() const;
};

// InvalidArgument naming `where`, the metric and the reason for an unknown name (listing the
// known ones), a value out of range or not finite.
StatusOr<MetricThreshold> MakeMetricThreshold(const std::string& name, double limit,
                                              const std::string& where);
// Thresholds from name/limit pairs; a name given twice is an error.
StatusOr<MetricThresholds> MakeMetricThresholds(
    const std::vector<std::pair<std::string, double>>& pairs, const std::string& where);
// Thresholds from "name=limit" texts (the command line's --metric), errors as above and for text
// that is not name=number.
StatusOr<MetricThresholds> ParseMetricThresholds(const std::vector<std::string>& texts,
                                                 const std::string& where);

// One threshold applied: `margin` is how far the value is on the passing side (value - limit for
// a lower bound, limit - value for an upper bound; negative when it fails, NaN for a NaN value).
struct MetricVerdict {
  std::string metric;
  double value = 0;
  double limit = 0;
  bool at_least = false;
  bool passed = false;
  double margin = 0;
};

// The thresholds that apply to a value (those whose metric it has). `judged` is false when none
// applies: the value is then judged elementwise.
struct MetricJudgement {
  bool judged = false;
  bool passed = true;
  std::vector<MetricVerdict> verdicts;
};
MetricJudgement JudgeMetrics(const TensorMetrics& metrics, const MetricThresholds& thresholds);

// "cosine 0.99987 (>= 0.999, margin 0.00087), top1 1 (>= 0.99, margin 0.01)".
std::string DescribeVerdicts(const std::vector<MetricVerdict>& verdicts);
// "max abs 0.1, mean abs 0.01, p99 abs 0.05, max rel 78, cosine 0.99987, sqnr 31.2 dB, top1 1".
std::string DescribeMetrics(const TensorMetrics& metrics);

}  // namespace onnxgate
