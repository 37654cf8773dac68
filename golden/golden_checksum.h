// The checksums a golden carries from format_version 2 on, so that a corrupted golden is reported
// as such ("golden corrupted") instead of as the runtime's failure.
//
// - Every input and output object has `sha256`: the SHA-256 of its value's canonical bytes
//   (GoldenValueSha256), which cover its name, index, rtol/atol, kind, element type, shape and
//   data. A flipped byte in a stored tensor, a changed shape or tolerance is caught and named.
// - The root has `content_sha256` (GoldenContentSha256) over the root attributes and every value's
//   sha256, set by set: a value, set or root attribute that was added, removed or changed is
//   caught even where no single value's hash can tell.
//
// They detect corruption (bit rot, a damaged copy, a tool that rewrote part of the file), not
// forgery: anyone who can edit a golden can recompute them. What a golden is compared against
// (the model) is protected separately by model_sha256 and model_files_sha256.
//
// The canonical bytes, so that other writers (h5py) can produce them: integers are 8 bytes
// little-endian (u64; int64 as two's complement), a string is u64 length then its bytes, a double
// is its 8 IEEE-754 bytes little-endian, and
//   value  = str("onnxgate-golden-value-v1") str(name) u64(index) tol(rtol) tol(atol) any(value)
//   tol    = u8 0 when absent, else u8 1 and the double
//   any    = str("tensor") tensor
//          | str("sequence") str(onnx_dtype) u64(count) tensor...
//          | str("optional") str(onnx_dtype) str(inner_kind) u8(has_value) [any(held)]
//   tensor = str(onnx_dtype) u64(rank) u64(dim)... data
//   data   = for STRING, str(element) per element; otherwise the dataset's elements in C order,
//            little-endian, as the format's type table stores them (BOOL one byte 0/1, INT4/UINT4/
//            INT2/UINT2 and FLOAT4E2M1 one byte per element, unpacked; complex as r, i pairs)
//   content = str("onnxgate-golden-content-v1") str(producer) str(model_sha256)
//             str(model_files_sha256 or "") str(opset_imports) str(created) str(source or "")
//             u64(number of sets), then per set u64(number of inputs) str(sha256)...
//             u64(number of outputs) str(sha256)..., and when some set has intermediate values
//             (format 3) u64(number of intermediates) str(sha256)..., values in index order,
//             then str("layerwise_every") u64(N) when N is not 1 and str("layerwise_precision")
//             str(precision) when it is not empty
// and each digest is the lowercase hex SHA-256 of those bytes.
#pragma once

#include <string>

#include "golden/golden_file.h"

namespace onnxgate {

// Lowercase hex SHA-256 of `value`'s canonical bytes.
std::string GoldenValueSha256(const GoldenValue& value);

// Lowercase hex SHA-256 over the root attributes of `golden` and GoldenValueSha256 of every value.
std::string GoldenContentSha256(const GoldenFile& golden);

}  // namespace onnxgate
