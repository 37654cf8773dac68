// Output comparison: one tight loop per element family over raw data, computing in double.
#include "harness/compare.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

namespace onnxgate {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Running results of one tensor's comparison.
struct Accumulator {
  double rtol = 0;
  double atol = 0;
  int64_t mismatches = 0;
  double max_abs = 0;
  double max_rel = 0;
  double need_rtol = 0;
  double need_atol = 0;
  double worst_score = 0;  // the worst element's |a - e| / allowed, or its difference for ints
  int64_t worst = -1;
};

void MarkNonFinite(Accumulator& acc) {
  acc.max_abs = acc.max_rel = acc.need_rtol = acc.need_atol = kInf;
}

// Checks one pair of reals; returns whether it fails and sets *score to |a - e| / allowed.
inline bool CheckPair(double a, double e, Accumulator& acc, double* score) {
  *score = 0;
  if (a == e) return false;  // also equal infinities and +0 against -0
  if (std::isnan(a) || std::isnan(e)) {
    if (std::isnan(a) && std::isnan(e)) return false;
    MarkNonFinite(acc);
    *score = kInf;
    return true;
  }
  if (std::isinf(a) || std::isinf(e)) {
    MarkNonFinite(acc);
    *score = kInf;
    return true;
  }
  double diff = std::fabs(a - e);
  double mag = std::fabs(e);
  double allowed = acc.atol + acc.rtol * mag;
  acc.max_abs = std::max(acc.max_abs, diff);
  if (mag > 0) acc.max_rel = std::max(acc.max_rel, diff / mag);
  acc.need_atol = std::max(acc.need_atol, diff - acc.rtol * mag);
  if (diff > acc.atol)
    acc.need_rtol = std::max(acc.need_rtol, mag > 0 ? (diff - acc.atol) / mag : kInf);
  *score = allowed > 0 ? diff / allowed : kInf;
  return diff > allowed;
}

inline void Record(int64_t i, bool bad, double score, Accumulator& acc) {
  acc.mismatches += bad;
  if (score > acc.worst_score) {
    acc.worst_score = score;
    acc.worst = i;
  }
}

inline double ToDouble(float v) { return v; }
inline double ToDouble(double v) { return v; }
inline double ToDouble(Float16 v) { return v.ToFloat(); }
inline double ToDouble(BFloat16 v) { return v.ToFloat(); }

template <typename T>
void CompareReals(const T* a, const T* e, int64_t n, Accumulator& acc) {
  for (int64_t i = 0; i < n; ++i) {
    double score;
    bool bad = CheckPair(ToDouble(a[i]), ToDouble(e[i]), acc, &score);
    Record(i, bad, score, acc);
  }
}

template <typename T>
void CompareComplex(const std::complex<T>* a, const std::complex<T>* e, int64_t n,
                    Accumulator& acc) {
  for (int64_t i = 0; i < n; ++i) {
    double re_score, im_score;
    bool bad_re = CheckPair(a[i].real(), e[i].real(), acc, &re_score);
    bool bad_im = CheckPair(a[i].imag(), e[i].imag(), acc, &im_score);
    Record(i, bad_re || bad_im, std::max(re_score, im_score), acc);
  }
}

// Integers and bools: exact. The worst element is the largest difference (the first for bools).
template <typename T>
void CompareExact(const T* a, const T* e, int64_t n, Accumulator& acc) {
  for (int64_t i = 0; i < n; ++i) {
    if (a[i] == e[i]) continue;
    double diff;
    if constexpr (std::is_unsigned_v<T>) {
      diff = static_cast<double>(a[i] > e[i] ? a[i] - e[i] : e[i] - a[i]);
    } else {
      diff = std::fabs(static_cast<double>(a[i]) - static_cast<double>(e[i]));
    }
    acc.max_abs = std::max(acc.max_abs, diff);
    if (e[i] != 0) acc.max_rel = std::max(acc.max_rel, diff / std::fabs(static_cast<double>(e[i])));
    Record(i, true, diff, acc);
  }
  if (acc.mismatches) acc.need_rtol = acc.need_atol = kInf;
}

// The 8-bit and 4-bit floats: decoded to float, then the same rule as every float. NaN codes
// (0x80 for the FNUZ types, 0xFF for E8M0) decode to NaN and match only NaN; infinities (E5M2)
// match the same infinity; the FNUZ types have no -0 to worry about.
void CompareLowPrecisionFloats(const Tensor& a, const Tensor& e, int64_t n, Accumulator& acc) {
  for (int64_t i = 0; i < n; ++i) {
    double score;
    bool bad = CheckPair(a.ElementAsDouble(i), e.ElementAsDouble(i), acc, &score);
    Record(i, bad, score, acc);
  }
}

// INT4/UINT4/INT2/UINT2: exact, like the wider integers, on their unpacked values.
void CompareSubByteInts(const Tensor& a, const Tensor& e, int64_t n, Accumulator& acc) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t av = a.SubByteInt(i), ev = e.SubByteInt(i);
    if (av == ev) continue;
    const double diff = std::fabs(static_cast<double>(av) - static_cast<double>(ev));
    acc.max_abs = std::max(acc.max_abs, diff);
    if (ev != 0) acc.max_rel = std::max(acc.max_rel, diff / std::fabs(static_cast<double>(ev)));
    Record(i, true, diff, acc);
  }
  if (acc.mismatches) acc.need_rtol = acc.need_atol = kInf;
}

void CompareStrings(const std::string* a, const std::string* e, int64_t n, Accumulator& acc) {
  for (int64_t i = 0; i < n; ++i) {
    if (a[i] != e[i]) Record(i, true, 1, acc);
  }
  if (acc.mismatches) acc.need_rtol = acc.need_atol = kInf;
}

// Shortest "%.<p>g" text that reads back as the same value.
template <typename Same>
std::string Shortest(double v, int min_digits, int max_digits, Same same) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int p = min_digits; p <= max_digits; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (same(std::strtod(buf, nullptr))) break;
  }
  return buf;
}

std::string FormatString(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < 60; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > 60) out += "...";
  return out + "\"";
}

std::string FormatElement(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat: {
      float v = t.data<float>()[i];
      return Shortest(v, 6, 9, [v](double r) { return static_cast<float>(r) == v; });
    }
    case DataType::kDouble: {
      double v = t.data<double>()[i];
      return Shortest(v, 15, 17, [v](double r) { return r == v; });
    }
    case DataType::kFloat16: {
      Float16 v = t.data<Float16>()[i];
      return Shortest(v.ToFloat(), 3, 5, [v](double r) {
        return Float16::FromFloat(static_cast<float>(r)).bits == v.bits;
      });
    }
    case DataType::kBFloat16: {
      BFloat16 v = t.data<BFloat16>()[i];
      return Shortest(v.ToFloat(), 2, 4, [v](double r) {
        return BFloat16::FromFloat(static_cast<float>(r)).bits == v.bits;
      });
    }
    case DataType::kComplex64: {
      std::complex<float> v = t.data<std::complex<float>>()[i];
      auto re =
          Shortest(v.real(), 6, 9, [&](double r) { return static_cast<float>(r) == v.real(); });
      auto im =
          Shortest(v.imag(), 6, 9, [&](double r) { return static_cast<float>(r) == v.imag(); });
      return "(" + re + (im[0] == '-' ? "" : "+") + im + "j)";
    }
    case DataType::kComplex128: {
      std::complex<double> v = t.data<std::complex<double>>()[i];
      auto re = Shortest(v.real(), 15, 17, [&](double r) { return r == v.real(); });
      auto im = Shortest(v.imag(), 15, 17, [&](double r) { return r == v.imag(); });
      return "(" + re + (im[0] == '-' ? "" : "+") + im + "j)";
    }
    case DataType::kString: return FormatString(t.data<std::string>()[i]);
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1: {
      // Each code decodes to a distinct float (but +-0), so the shortest text that reads back as
      // that float names the code.
      float v = static_cast<float>(t.ElementAsDouble(i));
      return Shortest(v, 3, 9, [v](double r) { return static_cast<float>(r) == v; });
    }
    default: return t.ElementToString(i);
  }
}

std::string IndexString(const std::vector<int64_t>& index) { return Shape(index).ToString(); }

std::vector<int64_t> Unravel(int64_t flat, const Shape& shape) {
  std::vector<int64_t> index(shape.rank());
  for (size_t k = shape.rank(); k-- > 0;) {
    index[k] = flat % shape[k];
    flat /= shape[k];
  }
  return index;
}

std::string Share(int64_t mismatches, int64_t total) {
  std::string s = std::to_string(mismatches) + "/" + std::to_string(total);
  if (mismatches > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.3g%%)", 100.0 * static_cast<double>(mismatches) / total);
    s += buf;
  }
  return s + " mismatches";
}

void FailStructure(const std::string& error, int64_t expected_elements, TensorComparison* c) {
  c->passed = false;
  c->structure_error = error;
  c->total_elements = c->mismatches = expected_elements;
  c->max_abs_error = c->max_rel_error = kInf;
  c->min_passing_rtol = c->min_passing_atol = kInf;
  c->summary = error;
}

std::string Summarize(const TensorComparison& c, DataType dtype) {
  bool inexact = IsFloatingPoint(dtype) || IsComplex(dtype) || IsLowPrecisionFloat(dtype);
  if (c.total_elements == 0) return "0 elements (empty tensor)";
  std::string s;
  if (inexact) {
    s = "max abs " + FormatShort(c.max_abs_error) + ", max rel " + FormatShort(c.max_rel_error) +
        ", ";
  }
  s += Share(c.mismatches, c.total_elements);
  if (c.passed) return s;
  bool first_only = dtype == DataType::kBool || dtype == DataType::kString;
  s += std::string(first_only ? ", first at " : ", worst at ") + IndexString(c.worst.index) +
       ": expected " + c.worst.expected + " got " + c.worst.actual;
  if (!inexact) {
    if (dtype != DataType::kString && dtype != DataType::kBool) {
      s += ", max abs " + FormatShort(c.max_abs_error);
    }
    return s + "; " + DataTypeShortName(dtype) + " values must be equal";
  }
  bool rtol_ok = std::isfinite(c.min_passing_rtol);
  bool atol_ok = std::isfinite(c.min_passing_atol);
  if (!rtol_ok && !atol_ok) return s + ", no tolerance would pass";
  s += ", would pass with ";
  if (rtol_ok) s += "rtol>=" + FormatShort(c.min_passing_rtol, true);
  if (rtol_ok && atol_ok) s += " or ";
  if (atol_ok) s += "atol>=" + FormatShort(c.min_passing_atol, true);
  return s;
}

std::string KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kNone: return "nothing";
    case Value::Kind::kTensor: return "a tensor";
    case Value::Kind::kSequence: return "a sequence";
    case Value::Kind::kOptional: return "an optional";
    case Value::Kind::kResident: return "a tensor resident on a provider";
  }
  return "?";
}

void AddStructureError(const std::string& path, const std::string& error, int64_t elements,
                       ValueComparison* out) {
  TensorComparison c;
  c.path = path;
  FailStructure(error, elements, &c);
  out->parts.push_back(std::move(c));
}

int64_t ElementCount(const Value& v) {
  if (v.is_tensor()) return v.tensor().defined() ? v.tensor().NumElements() : 0;
  int64_t n = 0;
  if (v.is_sequence()) {
    for (const Tensor& t : v.sequence()) n += t.defined() ? t.NumElements() : 0;
  }
  if (v.is_optional() && v.has_value()) n = ElementCount(v.optional_value());
  return n;
}

void CompareInto(const Value& actual, const Value& expected, const Tolerance& tolerance,
                 const std::string& path, ValueComparison* out) {
  if (actual.kind() != expected.kind()) {
    AddStructureError(path, KindName(expected.kind()) + " expected, got " + KindName(actual.kind()),
                      ElementCount(expected), out);
    return;
  }
  switch (expected.kind()) {
    case Value::Kind::kNone:
    case Value::Kind::kResident:  // a golden is read from a file, never resident
      return;
    case Value::Kind::kTensor: {
      out->parts.push_back(CompareTensors(actual.tensor(), expected.tensor(), tolerance));
      out->parts.back().path = path;
      return;
    }
    case Value::Kind::kSequence: {
      if (actual.elem_type() != expected.elem_type()) {
        AddStructureError(path,
                          std::string("sequence of ") + DataTypeShortName(expected.elem_type()) +
                              " expected, got sequence of " + DataTypeShortName(actual.elem_type()),
                          ElementCount(expected), out);
        return;
      }
      const auto& a = actual.sequence();
      const auto& e = expected.sequence();
      if (a.size() != e.size()) {
        AddStructureError(path,
                          "sequence of " + std::to_string(e.size()) + " items expected, got " +
                              std::to_string(a.size()),
                          ElementCount(expected), out);
        return;
      }
      for (size_t i = 0; i < e.size(); ++i) {
        out->parts.push_back(CompareTensors(a[i], e[i], tolerance));
        out->parts.back().path = path + "[" + std::to_string(i) + "]";
      }
      return;
    }
    case Value::Kind::kOptional: {
      if (actual.has_value() != expected.has_value()) {
        AddStructureError(path,
                          expected.has_value() ? "optional with a value expected, got an empty one"
                                               : "empty optional expected, got one with a value",
                          ElementCount(expected), out);
        return;
      }
      if (!expected.has_value()) {
        if (actual.optional_inner_kind() != expected.optional_inner_kind() ||
            actual.elem_type() != expected.elem_type()) {
          AddStructureError(
              path,
              "empty " + expected.TypeString() + " expected, got empty " + actual.TypeString(), 0,
              out);
        }
        return;
      }
      CompareInto(actual.optional_value(), expected.optional_value(), tolerance, path, out);
      return;
    }
  }
}

}  // namespace

std::string FormatShort(double x, bool round_up) {
  if (x == 0) return "0";
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  double v = x;
  if (round_up) {
    double mag = std::fabs(x);
    double scale = std::pow(10.0, std::floor(std::log10(mag)) - 1);
    // The slack keeps 0.064 at 0.064 when the division lands a hair above 64; the check after
    // it keeps the suggestion at or above the value when it lands a hair below.
    double m = std::ceil(mag / scale * (1 - 1e-12));
    if (m * scale < mag) m += 1;
    v = std::copysign(m * scale, x);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  // "3.2e-05" -> "3.2e-5": exponents without padding read faster in one-line summaries.
  std::string s = buf;
  size_t e = s.find('e');
  if (e != std::string::npos) {
    size_t digits = e + 2;
    while (digits + 1 < s.size() && s[digits] == '0') s.erase(digits, 1);
    if (s[e + 1] == '+') s.erase(e + 1, 1);
  }
  return s;
}

TensorComparison CompareTensors(const Tensor& actual, const Tensor& expected,
                                const Tolerance& tolerance) {
  TensorComparison c;
  int64_t expected_elements = expected.defined() ? expected.NumElements() : 0;
  if (actual.dtype() != expected.dtype()) {
    FailStructure(std::string("dtype ") + DataTypeShortName(expected.dtype()) + " expected, got " +
                      DataTypeShortName(actual.dtype()),
                  expected_elements, &c);
    return c;
  }
  if (actual.shape() != expected.shape()) {
    FailStructure(
        "shape " + expected.shape().ToString() + " expected, got " + actual.shape().ToString(),
        expected_elements, &c);
    return c;
  }
  Accumulator acc;
  acc.rtol = tolerance.rtol;
  acc.atol = tolerance.atol;
  int64_t n = expected_elements;
  switch (expected.dtype()) {
    case DataType::kFloat:
      CompareReals(actual.data<float>(), expected.data<float>(), n, acc);
      break;
    case DataType::kDouble:
      CompareReals(actual.data<double>(), expected.data<double>(), n, acc);
      break;
    case DataType::kFloat16:
      CompareReals(actual.data<Float16>(), expected.data<Float16>(), n, acc);
      break;
    case DataType::kBFloat16:
      CompareReals(actual.data<BFloat16>(), expected.data<BFloat16>(), n, acc);
      break;
    case DataType::kComplex64:
      CompareComplex(actual.data<std::complex<float>>(), expected.data<std::complex<float>>(), n,
                     acc);
      break;
    case DataType::kComplex128:
      CompareComplex(actual.data<std::complex<double>>(), expected.data<std::complex<double>>(), n,
                     acc);
      break;
    case DataType::kInt8:
      CompareExact(actual.data<int8_t>(), expected.data<int8_t>(), n, acc);
      break;
    case DataType::kInt16:
      CompareExact(actual.data<int16_t>(), expected.data<int16_t>(), n, acc);
      break;
    case DataType::kInt32:
      CompareExact(actual.data<int32_t>(), expected.data<int32_t>(), n, acc);
      break;
    case DataType::kInt64:
      CompareExact(actual.data<int64_t>(), expected.data<int64_t>(), n, acc);
      break;
    case DataType::kUint8:
      CompareExact(actual.data<uint8_t>(), expected.data<uint8_t>(), n, acc);
      break;
    case DataType::kUint16:
      CompareExact(actual.data<uint16_t>(), expected.data<uint16_t>(), n, acc);
      break;
    case DataType::kUint32:
      CompareExact(actual.data<uint32_t>(), expected.data<uint32_t>(), n, acc);
      break;
    case DataType::kUint64:
      CompareExact(actual.data<uint64_t>(), expected.data<uint64_t>(), n, acc);
      break;
    case DataType::kBool: CompareExact(actual.data<bool>(), expected.data<bool>(), n, acc); break;
    case DataType::kString:
      CompareStrings(actual.data<std::string>(), expected.data<std::string>(), n, acc);
      break;
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1: CompareLowPrecisionFloats(actual, expected, n, acc); break;
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2: CompareSubByteInts(actual, expected, n, acc); break;
    case DataType::kUndefined: break;  // two undefined tensors: nothing to compare
  }
  c.passed = acc.mismatches == 0;
  c.total_elements = n;
  c.mismatches = acc.mismatches;
  c.max_abs_error = acc.max_abs;
  c.max_rel_error = acc.max_rel;
  c.min_passing_rtol = acc.need_rtol;
  c.min_passing_atol = std::max(0.0, acc.need_atol);
  if (acc.worst >= 0) {
    c.worst.flat_index = acc.worst;
    c.worst.index = Unravel(acc.worst, expected.shape());
    c.worst.expected = FormatElement(expected, acc.worst);
    c.worst.actual = FormatElement(actual, acc.worst);
  }
  c.summary = Summarize(c, expected.dtype());
  return c;
}

ValueComparison CompareValues(const Value& actual, const Value& expected,
                              const Tolerance& tolerance) {
  ValueComparison out;
  CompareInto(actual, expected, tolerance, "", &out);
  out.passed = true;
  const TensorComparison* first_failure = nullptr;
  int failures = 0;
  for (const TensorComparison& c : out.parts) {
    out.total_elements += c.total_elements;
    out.mismatches += c.mismatches;
    out.max_abs_error = std::max(out.max_abs_error, c.max_abs_error);
    out.max_rel_error = std::max(out.max_rel_error, c.max_rel_error);
    out.min_passing_rtol = std::max(out.min_passing_rtol, c.min_passing_rtol);
    out.min_passing_atol = std::max(out.min_passing_atol, c.min_passing_atol);
    if (!c.passed) {
      out.passed = false;
      if (!first_failure) first_failure = &c;
      ++failures;
    }
  }
  if (first_failure) {
    out.summary =
        (first_failure->path.empty() ? "" : first_failure->path + ": ") + first_failure->summary;
    if (failures > 1) out.summary += " (and " + std::to_string(failures - 1) + " more items fail)";
  } else if (out.parts.size() == 1) {
    out.summary = out.parts[0].summary;
  } else if (out.parts.empty()) {
    out.summary = expected.is_optional() ? "both optionals empty" : "nothing to compare";
  } else {
    out.summary = std::to_string(out.parts.size()) + " items, max abs " +
                  FormatShort(out.max_abs_error) + ", max rel " + FormatShort(out.max_rel_error) +
                  ", " + Share(out.mismatches, out.total_elements);
  }
  return out;
}

}  // namespace onnxgate
