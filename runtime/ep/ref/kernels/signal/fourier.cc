// The discrete Fourier transform in double (radix-2, direct sum and Bluestein's algorithm) and
// the signal kernels' shared attribute parsing.
#include "runtime/ep/ref/kernels/signal/fourier.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "runtime/ep/ref/kernels/common/type_lists.h"

namespace onnxgate::ref {

namespace {

// Up to this length a transform that is not a power of two uses the direct sum.
constexpr size_t kMaxDirectLength = 64;

bool IsPowerOfTwo(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// exp(sign * 2*pi*i * j / n) for j in [0, count), each from its own exact angle.
std::vector<Complex> Twiddles(size_t n, size_t count, bool inverse) {
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<Complex> t(count);
  for (size_t j = 0; j < count; ++j) {
    const double angle = 2.0 * kPi * static_cast<double>(j) / static_cast<double>(n);
    t[j] = Complex(std::cos(angle), sign * std::sin(angle));
  }
  return t;
}

// In-place iterative Cooley-Tukey transform; x.size() must be a power of two.
void Radix2(std::vector<Complex>& x, bool inverse) {
  const size_t n = x.size();
  if (n < 2) return;
  // Bit-reversal permutation.
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  const std::vector<Complex> twiddle = Twiddles(n, n / 2, inverse);
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2;
    const size_t step = n / len;
    for (size_t start = 0; start < n; start += len) {
      for (size_t j = 0; j < half; ++j) {
        const Complex u = x[start + j];
        const Complex v = x[start + j + half] * twiddle[j * step];
        x[start + j] = u + v;
        x[start + j + half] = u - v;
      }
    }
  }
}

// Bluestein's chirp-z transform: the length-n DFT as a convolution of power-of-two length,
// using k*n = (k^2 + n^2 - (k-n)^2) / 2.
void Bluestein(std::vector<Complex>& x, bool inverse) {
  const size_t n = x.size();
  size_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  // chirp[k] = exp(sign * pi*i * k^2 / n), with k^2 reduced mod 2n to keep the angle exact.
  const double sign = inverse ? 1.0 : -1.0;
  const uint64_t period = 2 * static_cast<uint64_t>(n);
  std::vector<Complex> chirp(n);
  for (size_t k = 0; k < n; ++k) {
    const uint64_t k2 = (static_cast<uint64_t>(k) * static_cast<uint64_t>(k)) % period;
    const double angle = kPi * static_cast<double>(k2) / static_cast<double>(n);
    chirp[k] = Complex(std::cos(angle), sign * std::sin(angle));
  }
  std::vector<Complex> a(m), b(m);
  for (size_t k = 0; k < n; ++k) a[k] = x[k] * chirp[k];
  b[0] = std::conj(chirp[0]);
  for (size_t k = 1; k < n; ++k) b[k] = b[m - k] = std::conj(chirp[k]);
  Radix2(a, false);
  Radix2(b, false);
  for (size_t k = 0; k < m; ++k) a[k] *= b[k];
  Radix2(a, true);
  const double scale = 1.0 / static_cast<double>(m);
  for (size_t k = 0; k < n; ++k) x[k] = chirp[k] * a[k] * scale;
}

}  // namespace

std::vector<Complex> DirectFourier(const std::vector<Complex>& x, bool inverse) {
  const size_t n = x.size();
  const std::vector<Complex> twiddle = Twiddles(n, n, inverse);
  std::vector<Complex> out(n);
  for (size_t k = 0; k < n; ++k) {
    Complex sum = 0.0;
    size_t index = 0;  // k * j mod n, advanced without overflow
    for (size_t j = 0; j < n; ++j) {
      sum += x[j] * twiddle[index];
      index += k;
      if (index >= n) index -= n;
    }
    out[k] = sum;
  }
  return out;
}

void Fourier(std::vector<Complex>& x, bool inverse) {
  const size_t n = x.size();
  if (n < 2) return;
  if (IsPowerOfTwo(n)) {
    Radix2(x, inverse);
  } else if (n <= kMaxDirectLength) {
    x = DirectFourier(x, inverse);
  } else {
    Bluestein(x, inverse);
  }
}

StatusOr<bool> FlagAttribute(const KernelInfo& info, const char* name, int64_t default_value) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t value, info.GetInt(name, default_value));
  if (value != 0 && value != 1) {
    return InvalidArgument(std::string("attribute '") + name + "' must be 0 or 1, got " +
                           std::to_string(value));
  }
  return value == 1;
}

StatusOr<DataType> OutputDatatypeAttribute(const KernelInfo& info) {
  using namespace ref::types;  // NOLINT: type-list shorthands
  ONNXGATE_ASSIGN_OR_RETURN(int64_t code,
                            info.GetInt("output_datatype", static_cast<int64_t>(DataType::kFloat)));
  const List allowed = Ints() + F4();
  if (code < 0 || code > INT32_MAX || !IsValidDataType(static_cast<int32_t>(code)) ||
      std::find(allowed.begin(), allowed.end(), static_cast<DataType>(code)) == allowed.end()) {
    return InvalidArgument(
        "attribute 'output_datatype' must be a numeric "
        "TensorProto data type (integer or float), got " +
        std::to_string(code));
  }
  return static_cast<DataType>(code);
}

}  // namespace onnxgate::ref
