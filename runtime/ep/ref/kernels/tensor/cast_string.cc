// Text <-> number conversions for Cast.
#include "runtime/ep/ref/kernels/tensor/cast_string.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool EqualsIgnoreCase(const std::string& a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

Status NotANumber(const std::string& text) {
  return InvalidArgument("cannot parse \"" + text + "\" as a number");
}

// Splits a leading sign off `s` (from_chars takes '-' but not '+').
bool StripSign(std::string* s) {
  if (!s->empty() && ((*s)[0] == '+' || (*s)[0] == '-')) {
    bool negative = (*s)[0] == '-';
    s->erase(0, 1);
    return negative;
  }
  return false;
}

// Parses a complete decimal literal into T (float or double), correctly rounded.
template <typename T>
bool FromChars(const std::string& s, T* out) {
  if (s.empty() || s[0] == '-' || s[0] == '+') return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  // Out-of-range literals round to infinity or zero like strtod would.
  if (ec == std::errc::result_out_of_range) {
    double d = std::strtod(s.c_str(), nullptr);
    *out = static_cast<T>(d);
    return end == s.data() + s.size();
  }
  return ec == std::errc() && end == s.data() + s.size();
}

// Reduces a double to the precision of the float type `type`.
double RoundTo(double v, DataType type) {
  switch (type) {
    case DataType::kFloat: return static_cast<float>(v);
    case DataType::kFloat16: return Float16::FromFloat(RoundToOddFloat(v)).ToFloat();
    case DataType::kBFloat16: return BFloat16::FromFloat(RoundToOddFloat(v)).ToFloat();
    default: return v;
  }
}

bool SameValue(double a, double b) { return a == b && std::signbit(a) == std::signbit(b); }

}  // namespace

float RoundToOddFloat(double d) {
  float f = static_cast<float>(d);
  if (std::isinf(f) && !std::isinf(d)) {
    // Truncation never reaches infinity: a finite value beyond float's range gives +-FLT_MAX,
    // whose last mantissa bit is already odd.
    return std::copysign(std::numeric_limits<float>::max(), static_cast<float>(d));
  }
  if (std::isnan(d) || std::isinf(f) || static_cast<double>(f) == d) return f;
  // Truncate toward zero, then mark the lost bits with the lowest mantissa bit ("round to odd").
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  bits |= 1u;
  std::memcpy(&f, &bits, sizeof bits);
  return f;
}

std::string FloatToText(double v, DataType type) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + "0.0";
  // The shortest "%.{p}e" rendering that parses back to the same value of `type`.
  char buf[64];
  for (int precision = 0; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, std::fabs(v));
    auto parsed = ParseFloatText(buf, type);
    if (parsed.ok() && SameValue(*parsed, std::fabs(v))) break;
  }
  // buf is "d.ddde[+-]xx": collect the digits and the decimal exponent.
  std::string digits;
  const char* e = std::strchr(buf, 'e');
  for (const char* p = buf; p < e; ++p) {
    if (*p != '.') digits += *p;
  }
  const int exponent = std::atoi(e + 1);
  const double magnitude = std::fabs(v);
  std::string out = sign;
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    if (exponent >= 0) {
      const size_t int_len = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= int_len) {
        out += digits + std::string(int_len - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, int_len) + "." + digits.substr(int_len);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char exp_buf[16];
  std::snprintf(exp_buf, sizeof exp_buf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out + exp_buf;
}

StatusOr<double> ParseFloatText(const std::string& text, DataType type) {
  std::string s = Trim(text);
  const bool negative = StripSign(&s);
  double value;
  if (EqualsIgnoreCase(s, "nan")) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (EqualsIgnoreCase(s, "inf") || EqualsIgnoreCase(s, "infinity")) {
    value = std::numeric_limits<double>::infinity();
  } else if (type == DataType::kFloat) {
    // Straight to float: parsing to double first would round twice.
    float f;
    if (!FromChars(s, &f)) return NotANumber(text);
    value = f;
  } else {
    if (!FromChars(s, &value)) return NotANumber(text);
    value = RoundTo(value, type);
  }
  return negative ? -value : value;
}

template <typename T>
StatusOr<T> ParseIntegerText(const std::string& text) {
  std::string s = Trim(text);
  std::string digits = s;
  const bool negative = StripSign(&digits);
  if (!digits.empty() &&
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (negative && std::is_unsigned_v<T>) {
      // Any digits at all: a negative integer saturates to 0 (or is -0).
      return T{0};
    }
    T value{};
    std::string literal = (negative ? "-" : "") + digits;
    auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), value);
    if (ec == std::errc::result_out_of_range) {
      return negative ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    }
    if (ec == std::errc() && end == literal.data() + literal.size()) return value;
    return NotANumber(text);
  }
  ONNXGATE_ASSIGN_OR_RETURN(double d, ParseFloatText(text, DataType::kDouble));
  return SaturatingCast<T>(d);
}

template StatusOr<int8_t> ParseIntegerText<int8_t>(const std::string&);
template StatusOr<int16_t> ParseIntegerText<int16_t>(const std::string&);
template StatusOr<int32_t> ParseIntegerText<int32_t>(const std::string&);
template StatusOr<int64_t> ParseIntegerText<int64_t>(const std::string&);
template StatusOr<uint8_t> ParseIntegerText<uint8_t>(const std::string&);
template StatusOr<uint16_t> ParseIntegerText<uint16_t>(const std::string&);
template StatusOr<uint32_t> ParseIntegerText<uint32_t>(const std::string&);
template StatusOr<uint64_t> ParseIntegerText<uint64_t>(const std::string&);

StatusOr<bool> ParseBoolText(const std::string& text) {
  std::string s = Trim(text);
  if (EqualsIgnoreCase(s, "true")) return true;
  if (EqualsIgnoreCase(s, "false")) return false;
  ONNXGATE_ASSIGN_OR_RETURN(double d, ParseFloatText(text, DataType::kDouble));
  return d != 0;  // NaN != 0 is true, as bool(nan) in Python
}

}  // namespace onnxgate::ref
