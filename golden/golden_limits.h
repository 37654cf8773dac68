// The sizes a golden may declare. A golden is untrusted input: a few bytes of HDF5 metadata can
// declare a dataspace of terabytes, a fixed-length string of gigabytes per element, a chunk larger
// than the whole dataset, or millions of links, and libhdf5 (and this reader) would allocate what
// is declared before finding out that the data is not there. Each limit below is checked against
// what the file declares, before anything of that size is allocated.
#pragma once

#include <cstdint>

namespace onnxgate {

// The largest golden file: it is read into memory whole (golden/golden_file_open.h) before libhdf5
// parses it, so this also bounds what opening a golden costs.
inline constexpr uint64_t kMaxGoldenFileBytes = uint64_t{1} << 30;  // 1 GiB

// The most bytes one tensor may declare: its elements times the bytes each takes in memory (for
// STRING, the string objects; for fixed-length strings, also the declared length per element).
// An 18 KB file declaring 16 GiB, or a 1 MB gzip bomb declaring 1 GiB, is refused by this.
inline constexpr int64_t kMaxGoldenTensorBytes = int64_t{512} << 20;  // 512 MiB

// The most bytes all tensors of one golden may declare together.
inline constexpr int64_t kMaxGoldenTotalBytes = int64_t{1} << 30;  // 1 GiB

// The largest chunk of a chunked dataset: libhdf5 allocates (and inflates into) one chunk-sized
// buffer per chunk it reads, whatever the dataset's own size.
inline constexpr int64_t kMaxGoldenChunkBytes = kMaxGoldenTensorBytes;

// The most links one group may hold, and the longest link name: names are listed before any child
// is opened.
inline constexpr uint64_t kMaxGoldenGroupLinks = uint64_t{1} << 20;
inline constexpr uint64_t kMaxGoldenLinkNameBytes = 64 * 1024;

// The most elements an array attribute (a tensor's `shape`) may have: HDF5's own rank limit is 32.
inline constexpr int64_t kMaxGoldenArrayAttributeElements = 64;

// The longest fixed-length string attribute (producer, source, ...).
inline constexpr uint64_t kMaxGoldenStringAttributeBytes = uint64_t{1} << 20;  // 1 MiB

// The limits ReadGolden applies to what a golden's tensors declare; the defaults are the limits
// above. Only tests pass others (to show a limit without allocating up to it).
struct GoldenReadLimits {
  int64_t tensor_bytes = kMaxGoldenTensorBytes;
  int64_t total_bytes = kMaxGoldenTotalBytes;
  int64_t chunk_bytes = kMaxGoldenChunkBytes;
};

}  // namespace onnxgate
