// The discrete Fourier transform of one complex sequence in double, shared by DFT and STFT, and
// the attribute parsing the signal kernels (DFT, STFT, windows, MelWeightMatrix) have in common.
#pragma once

#include <complex>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::ref {

using Complex = std::complex<double>;

inline constexpr double kPi = 3.14159265358979323846;

// Replaces `x` (length N) by its unnormalized discrete Fourier transform
//   X[k] = sum_n x[n] * exp(-2*pi*i*k*n/N)   (forward), or
//   X[k] = sum_n x[n] * exp(+2*pi*i*k*n/N)   (inverse; the caller divides by N).
// Any length: radix-2 for powers of two, the direct sum for short lengths, Bluestein's chirp-z
// transform (through power-of-two FFTs) for long lengths that are not powers of two.
void Fourier(std::vector<Complex>& x, bool inverse);

// The direct O(N^2) sum above, for checking Fourier in tests.
std::vector<Complex> DirectFourier(const std::vector<Complex>& x, bool inverse);

// The 0/1 attribute `name` (onesided, inverse, periodic) as a bool, `default_value` when absent;
// InvalidArgument naming the node for any other value.
StatusOr<bool> FlagAttribute(const KernelInfo& info, const char* name, int64_t default_value);

// The `output_datatype` attribute of the window ops and MelWeightMatrix (default FLOAT): one of
// the numeric types their output constraint allows; InvalidArgument naming the node otherwise.
StatusOr<DataType> OutputDatatypeAttribute(const KernelInfo& info);

}  // namespace onnxgate::ref
