// The frames of the adapter protocol (docs/adapter-protocol.md): a JSON header and binary blobs.
//
//   "OGA1"             4 bytes
//   header length      u32, little-endian, at most kMaxFrameHeaderBytes
//   blob count         u32, little-endian, at most kMaxFrameBlobs
//   header             UTF-8 JSON object
//   each blob          u64 little-endian length, then the bytes (at most kMaxFrameBlobBytes)
//
// Reading checks every field before it allocates; a stream that is not a frame (a stray print
// from the adapter, say) is an error that quotes what came instead.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr char kFrameMagic[4] = {'O', 'G', 'A', '1'};
inline constexpr uint32_t kMaxFrameHeaderBytes = 64u << 20;
inline constexpr uint32_t kMaxFrameBlobs = 1u << 20;
inline constexpr uint64_t kMaxFrameBlobBytes = uint64_t{4} << 30;

struct Frame {
  nlohmann::json header = nlohmann::json::object();
  std::vector<std::string> blobs;
};

// The frame as bytes.
std::string EncodeFrame(const Frame& frame);

// Writes all of `bytes` to `fd` (retrying on EINTR). Unavailable when the reader is gone.
Status WriteAll(int fd, const std::string& bytes);

// Reads one frame from `fd`, waiting at most until `deadline`. DataLoss for a stream that is not
// a frame (quoting its first bytes) or a malformed header; Unavailable at end of file (the
// writer is gone) or past the deadline.
StatusOr<Frame> ReadFrame(int fd, std::chrono::steady_clock::time_point deadline);

}  // namespace onnxgate
