// Error metrics and their thresholds (see metrics.h).
#include "harness/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <set>

namespace onnxgate {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool IsNumeric(DataType t) { return IsFloatingPoint(t) || IsInteger(t); }

std::vector<double> AsDoubles(const Tensor& t) {
  const int64_t n = t.shape().NumElements();
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = t.ElementAsDouble(i);
  return v;
}

// Nearest-rank 99th percentile of `values` (reordered).
double P99(std::vector<double>& values) {
  if (values.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(values.size())));
  const size_t at = std::max<size_t>(rank, 1) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
  return values[at];
}

void MarkUnmatchedNonFinite(TensorMetrics& m) {
  m.max_abs = m.mean_abs = m.p99_abs = m.max_rel = m.mean_rel = m.p99_rel = kInf;
  m.max_steps = kInf;
  m.cosine = kNaN;
  m.sqnr_db = -kInf;
}

// Errors, cosine and SQNR over `a` against `e`.
void ComputeErrors(const std::vector<double>& a, const std::vector<double>& e, TensorMetrics& m) {
  std::vector<double> abs_errors, rel_errors;
  abs_errors.reserve(a.size());
  double dot = 0, aa = 0, ee = 0, noise = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == e[i] || (std::isnan(a[i]) && std::isnan(e[i]))) {
      abs_errors.push_back(0);
      if (std::isfinite(e[i])) {
        dot += a[i] * e[i], aa += a[i] * a[i], ee += e[i] * e[i];
        if (e[i] != 0) rel_errors.push_back(0);
      }
      continue;
    }
    if (!std::isfinite(a[i]) || !std::isfinite(e[i])) return MarkUnmatchedNonFinite(m);
    const double diff = std::fabs(a[i] - e[i]);
    abs_errors.push_back(diff);
    if (e[i] != 0) rel_errors.push_back(diff / std::fabs(e[i]));
    dot += a[i] * e[i], aa += a[i] * a[i], ee += e[i] * e[i];
    noise += diff * diff;
  }
  auto max_of = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
  };
  auto mean_of = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  };
  m.max_abs = max_of(abs_errors), m.mean_abs = mean_of(abs_errors), m.p99_abs = P99(abs_errors);
  m.max_rel = max_of(rel_errors), m.mean_rel = mean_of(rel_errors), m.p99_rel = P99(rel_errors);
  m.max_steps = m.integer ? m.max_abs : 0;
  if (aa == 0 && ee == 0) {
    m.cosine = 1;
  } else if (aa == 0 || ee == 0) {
    m.cosine = 0;
  } else {
    m.cosine = std::clamp(dot / (std::sqrt(aa) * std::sqrt(ee)), -1.0, 1.0);
  }
  m.sqnr_db = noise == 0 ? kInf : ee == 0 ? -kInf : 10 * std::log10(ee / noise);
}

// The k largest classes of one row as a set: ties rank the lower index first, NaN last.
std::set<int64_t> TopClasses(const double* row, int64_t classes, int k) {
  std::vector<int64_t> order(static_cast<size_t>(classes));
  std::iota(order.begin(), order.end(), 0);
  auto ranks_before = [row](int64_t x, int64_t y) {
    const double a = row[x], b = row[y];
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    return a > b;
  };
  std::stable_sort(order.begin(), order.end(), ranks_before);
  return std::set<int64_t>(order.begin(), order.begin() + k);
}

void ComputeTopK(const std::vector<double>& a, const std::vector<double>& e, const Shape& shape,
                 const std::vector<int>& top_ks, TensorMetrics& m) {
  if (shape.rank() == 0) return;
  const int64_t classes = shape[shape.rank() - 1];
  const int64_t rows = classes == 0 ? 0 : static_cast<int64_t>(a.size()) / classes;
  for (int k : top_ks) {
    if (rows > 0 && classes < k) continue;
    int64_t agreeing = 0;
    for (int64_t r = 0; r < rows; ++r) {
      agreeing +=
          TopClasses(&a[r * classes], classes, k) == TopClasses(&e[r * classes], classes, k);
    }
    m.top_k.push_back({k, rows == 0 ? 1.0 : static_cast<double>(agreeing) / rows});
  }
}

struct MetricSpec {
  const char* name;
  bool at_least;
};
constexpr MetricSpec kMetrics[] = {{"cosine", true},    {"sqnr_db", true},  {"max_abs", false},
                                   {"mean_abs", false}, {"p99_abs", false}, {"max_rel", false},
                                   {"mean_rel", false}, {"p99_rel", false}, {"int_steps", false}};

// K of "top<K>", or 0 when `name` is not of that form. -1 for a K that is not a positive number.
int TopKOfName(const std::string& name) {
  if (name.rfind("top", 0) != 0 || name.size() == 3) return 0;
  const std::string digits = name.substr(3);
  if (digits[0] == '-') return -1;
  if (digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  if (digits.size() > 6) return -1;
  const int k = std::atoi(digits.c_str());
  return k >= 1 ? k : -1;
}

std::string Format(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string KnownNames() {
  std::string s;
  for (const MetricSpec& spec : kMetrics) s += std::string(s.empty() ? "" : ", ") + spec.name;
  return s + ", top<K>";
}

}  // namespace

bool TensorMetrics::Lookup(const std::string& name, double* value) const {
  if (!computed) return false;
  if (const int k = TopKOfName(name); k > 0) {
    for (const TopKAgreement& t : top_k) {
      if (t.k == k) return *value = t.agreement, true;
    }
    return false;
  }
  const std::pair<const char*, double> values[] = {
      {"cosine", cosine},     {"sqnr_db", sqnr_db}, {"max_abs", max_abs},
      {"mean_abs", mean_abs}, {"p99_abs", p99_abs}, {"max_rel", max_rel},
      {"mean_rel", mean_rel}, {"p99_rel", p99_rel}, {"int_steps", max_steps}};
  for (const auto& [metric, v] : values) {
    if (name == metric && (name != "int_steps" || integer)) return *value = v, true;
  }
  return false;
}

TensorMetrics ComputeTensorMetrics(const Tensor& actual, const Tensor& expected,
                                   const std::vector<int>& top_ks) {
  TensorMetrics m;
  if (!IsNumeric(actual.dtype()) || !IsNumeric(expected.dtype())) {
    m.why_not = "not numeric tensors";
    return m;
  }
  if (actual.shape() != expected.shape()) {
    m.why_not =
        "shape " + expected.shape().ToString() + " expected, got " + actual.shape().ToString();
    return m;
  }
  m.computed = true;
  m.integer = IsInteger(actual.dtype()) && IsInteger(expected.dtype());
  m.elements = expected.shape().NumElements();
  const std::vector<double> a = AsDoubles(actual), e = AsDoubles(expected);
  ComputeErrors(a, e, m);
  if (!m.integer) ComputeTopK(a, e, expected.shape(), top_ks, m);
  return m;
}

TensorMetrics ComputeValueMetrics(const Value& actual, const Value& expected,
                                  const std::vector<int>& top_ks) {
  if (!actual.is_tensor() || !expected.is_tensor()) {
    TensorMetrics m;
    m.why_not = "not tensors";
    return m;
  }
  return ComputeTensorMetrics(actual.tensor(), expected.tensor(), top_ks);
}

std::vector<int> MetricThresholds::TopKs(int extra) const {
  std::set<int> ks;
  for (const MetricThreshold& t : items) {
    if (const int k = TopKOfName(t.name); k > 0) ks.insert(k);
  }
  if (extra > 0) ks.insert(extra);
  return std::vector<int>(ks.begin(), ks.end());
}

std::string MetricThresholds::ToString() const {
  std::string s = "{";
  for (const MetricThreshold& t : items) {
    s += std::string(s.size() > 1 ? ", " : "") + "\"" + t.name + "\": " + Format(t.limit);
  }
  return s + "}";
}

StatusOr<MetricThreshold> MakeMetricThreshold(const std::string& name, double limit,
                                              const std::string& where) {
  auto bad = [&](const std::string& why) {
    return InvalidArgument(where + ": metric '" + name + "' " + why);
  };
  if (!std::isfinite(limit)) return bad("must be a finite number, got " + Format(limit));
  if (const int k = TopKOfName(name); k != 0) {
    if (k < 0) return bad("needs a positive K (top1, top5)");
    if (limit < 0 || limit > 1) return bad("is a share in [0, 1], got " + Format(limit));
    return MetricThreshold{name, limit, true};
  }
  for (const MetricSpec& spec : kMetrics) {
    if (name != spec.name) continue;
    if (name == "cosine" && (limit < -1 || limit > 1)) {
      return bad("is a cosine similarity in [-1, 1], got " + Format(limit));
    }
    if (!spec.at_least && limit < 0) return bad("is an upper bound >= 0, got " + Format(limit));
    if (name == "int_steps" && limit != std::floor(limit)) {
      return bad("is a whole number of steps, got " + Format(limit));
    }
    return MetricThreshold{name, limit, spec.at_least};
  }
  return bad("is unknown (known: " + KnownNames() + ")");
}

StatusOr<MetricThresholds> MakeMetricThresholds(
    const std::vector<std::pair<std::string, double>>& pairs, const std::string& where) {
  MetricThresholds thresholds;
  for (const auto& [name, limit] : pairs) {
    for (const MetricThreshold& t : thresholds.items) {
      if (t.name == name) return InvalidArgument(where + ": metric '" + name + "' given twice");
    }
    ONNXGATE_ASSIGN_OR_RETURN(MetricThreshold t, MakeMetricThreshold(name, limit, where));
    thresholds.items.push_back(std::move(t));
  }
  return thresholds;
}

StatusOr<MetricThresholds> ParseMetricThresholds(const std::vector<std::string>& texts,
                                                 const std::string& where) {
  std::vector<std::pair<std::string, double>> pairs;
  for (const std::string& text : texts) {
    const size_t eq = text.find('=');
    const std::string number = eq == std::string::npos ? "" : text.substr(eq + 1);
    char* end = nullptr;
    const double limit = std::strtod(number.c_str(), &end);
    if (eq == 0 || number.empty() || end == nullptr || *end != '\0') {
      return InvalidArgument(where + ": '" + text + "' is not NAME=NUMBER (e.g. cosine=0.999)");
    }
    pairs.emplace_back(text.substr(0, eq), limit);
  }
  return MakeMetricThresholds(pairs, where);
}

MetricJudgement JudgeMetrics(const TensorMetrics& metrics, const MetricThresholds& thresholds) {
  MetricJudgement j;
  for (const MetricThreshold& t : thresholds.items) {
    double value;
    if (!metrics.Lookup(t.name, &value)) continue;
    MetricVerdict v{t.name, value, t.limit, t.at_least};
    v.margin = t.at_least ? value - t.limit : t.limit - value;
    if (std::isinf(value) && std::isinf(t.limit)) v.margin = 0;
    v.passed = t.at_least ? value >= t.limit : value <= t.limit;  // false for NaN
    j.judged = true;
    j.passed = j.passed && v.passed;
    j.verdicts.push_back(v);
  }
  return j;
}

std::string DescribeVerdicts(const std::vector<MetricVerdict>& verdicts) {
  std::string s;
  for (const MetricVerdict& v : verdicts) {
    if (!s.empty()) s += ", ";
    s += v.metric + " " + Format(v.value) + " (" + (v.at_least ? ">= " : "<= ") + Format(v.limit) +
         (v.passed ? ", margin " : ", FAILS by ") + Format(v.passed ? v.margin : -v.margin) + ")";
  }
  return s;
}

std::string DescribeMetrics(const TensorMetrics& m) {
  if (!m.computed) return "no metrics (" + m.why_not + ")";
  std::string s = "max abs " + Format(m.max_abs) + ", mean abs " + Format(m.mean_abs) +
                  ", p99 abs " + Format(m.p99_abs) + ", max rel " + Format(m.max_rel) +
                  ", cosine " + Format(m.cosine) + ", sqnr " + Format(m.sqnr_db) + " dB";
  if (m.integer) s += ", max steps " + Format(m.max_steps);
  for (const TopKAgreement& t : m.top_k)
    s += ", top" + std::to_string(t.k) + " " + Format(t.agreement);
  return s;
}

}  // namespace onnxgate
