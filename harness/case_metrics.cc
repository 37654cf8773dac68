// A case's metric thresholds applied to an output record (see case_metrics.h).
#include "harness/case_metrics.h"

namespace onnxgate {

void JudgeOutputByMetrics(const Value& actual, const Value& expected,
                          const MetricThresholds& thresholds, OutputComparison* rec,
                          std::string* summary) {
  if (thresholds.empty()) return;
  const TensorMetrics metrics = ComputeValueMetrics(actual, expected, thresholds.TopKs());
  const MetricJudgement judgement = JudgeMetrics(metrics, thresholds);
  if (!judgement.judged) return;
  rec->passed = judgement.passed;
  rec->metrics.clear();
  for (const MetricVerdict& v : judgement.verdicts) {
    rec->metrics.push_back({v.metric, v.value, v.limit, v.at_least, v.passed, v.margin});
  }
  *summary = "judged by metrics: " + DescribeVerdicts(judgement.verdicts);
}

}  // namespace onnxgate
