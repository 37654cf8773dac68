// NumPy .npz archives (numpy.savez and numpy.savez_compressed) read into tensors: the zip is read
// through libzip from memory, each member "<name>.npy" parsed as NumPy's .npy format 1.0-3.0
// (little-endian or single-byte element types, C order).
//
// An archive is untrusted: a few megabytes of deflated zeros may declare gigabytes. So the
// members are first matched by name from the zip's central directory, and the uncompressed sizes
// the archive declares for the members to be read are checked, one by one and in sum, against
// the limits below before any member is inflated; members not asked for are never inflated.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

// The most bytes one array may hold once decompressed; a larger member is refused unread.
inline constexpr uint64_t kMaxNpzArrayBytes = uint64_t{2} << 30;

// The most bytes all the arrays read from one archive may declare together, uncompressed: what
// one .npz of inputs may cost in memory, whatever its size on disk.
inline constexpr uint64_t kNpzBudgetBytes = uint64_t{2} << 30;

// Which arrays of an archive to read, and within what budget.
struct NpzRequest {
  // Array names (member names without ".npy") to read; nullopt reads every array.
  std::optional<std::set<std::string>> wanted;
  // The most bytes the members read may declare together, uncompressed.
  uint64_t budget_bytes = kNpzBudgetBytes;
};

struct NpzArrays {
  std::map<std::string, Tensor> arrays;  // the arrays read, by name
  std::vector<std::string> unread;       // names of the arrays not wanted (never inflated)
};

// The arrays of the .npz file at `path` that `request` asks for, by name. InvalidArgument names
// the file and, where it applies, the array: not a zip, a member that is not .npy or appears
// twice, a member declaring more than kMaxNpzArrayBytes or more than deflate could expand the
// archive to, members to be read declaring more than the budget together (all checked before
// anything is inflated), a big-endian or Fortran-order array, an element type ONNX has no type
// for, a data size that does not match the shape.
StatusOr<NpzArrays> ReadNpzFile(const std::string& path, const NpzRequest& request = {});

// One .npy file's bytes as a tensor; `source` names it in messages.
StatusOr<Tensor> ParseNpy(const std::string& bytes, const std::string& source);

}  // namespace onnxgate
