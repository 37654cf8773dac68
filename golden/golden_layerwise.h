// Smaller layerwise goldens: `onnxgate record --layerwise-every N` keeps the intermediate values of
// every Nth node only, and `--layerwise-precision float16` stores float32 intermediate values as
// float16. The golden records both as root attributes (GoldenFile::layerwise_every and
// ::layerwise_precision), so that the gate's first-divergence attribution knows what it compares
// with: values of the nodes kept only (a divergence is then named at the first kept node at or
// after the node where it arose), and float16 values widened back to float32 and compared with a
// tolerance no tighter than kFloat16StoredRtol / kFloat16StoredAtol, which the float16 rounding
// (half an ulp: 2^-11 relative for normal numbers, 2^-25 absolute below them) cannot exceed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "golden/golden_file.h"
#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

inline constexpr char kLayerwiseFloat16[] = "float16";
inline constexpr double kFloat16StoredRtol = 1e-3;
inline constexpr double kFloat16StoredAtol = 1e-7;

// InvalidArgument, prefixed with `where`, for a layerwise_every below 1 or a
// layerwise_precision other than "" and "float16".
Status CheckLayerwiseAttributes(const GoldenFile& golden, const std::string& where);

// For values computed by the nodes at `node_indices` (in node order; a node's several outputs
// adjacent), whether each is kept: those of the every-th distinct node, the 2*every-th, ..., and
// those of the last node. `every` 1 (or less) keeps all.
std::vector<bool> KeepEveryNthNode(const std::vector<int64_t>& node_indices, int64_t every);

// A float32 tensor narrowed to float16 (round to nearest even) when every finite element fits
// float16's range (|x| <= 65504); any other value as it is.
Value NarrowToFloat16(const Value& value);

// A float16 tensor widened to float32 (exact); any other value as it is.
Value WidenFloat16(const Value& value);

}  // namespace onnxgate
