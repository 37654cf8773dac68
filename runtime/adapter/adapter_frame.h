// The frames of the adapter protocol (docs/adapter-protocol.md): a JSON header and binary blobs.
//
//   "OGA1"             4 bytes
//   header length      u32, little-endian, at most kMaxFrameHeaderBytes
//   blob count         u32, little-endian, at most kMaxFrameBlobs
//   header             UTF-8 JSON object
//   each blob          u64 little-endian length, then the bytes (at most kMaxFrameBlobBytes)
//
// Reading checks every field before it allocates, and the header's bracket nesting before it is
// parsed (a header nested a million deep would exhaust the stack of whatever walks it); a stream
// that is not a frame (a stray print from the adapter, say) is an error that quotes a bounded,
// escaped prefix of what came instead.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr char kFrameMagic[4] = {'O', 'G', 'A', '1'};
inline constexpr uint32_t kMaxFrameHeaderBytes = 64u << 20;
inline constexpr uint32_t kMaxFrameBlobs = 1u << 20;
inline constexpr uint64_t kMaxFrameBlobBytes = uint64_t{4} << 30;
// Far deeper than any reply of the protocol (a load's placements nest 4 levels).
inline constexpr int kMaxFrameHeaderNesting = 64;
// How much of a hostile header or stray output a message quotes.
inline constexpr size_t kMaxQuotedBytes = 200;

struct Frame {
  nlohmann::json header = nlohmann::json::object();
  std::vector<std::string> blobs;
  // The header's first bytes as they came (at most kMaxQuotedBytes), for messages about it.
  std::string header_start;
};

// `bytes` in single quotes, printable ASCII kept and every other byte as \xNN, cut after
// `max_bytes` with the full size said: safe to put in any message whatever the bytes are.
std::string QuoteBytes(const std::string& bytes, size_t max_bytes = kMaxQuotedBytes);

// The frame as bytes. InvalidArgument when the header holds a string that is not UTF-8 (a model
// path or a feed name of other bytes), which JSON cannot carry.
StatusOr<std::string> EncodeFrame(const Frame& frame);

// Writes all of `bytes` to `fd` (retrying on EINTR). Unavailable when the reader is gone.
Status WriteAll(int fd, const std::string& bytes);

// Reads one frame from `fd`, waiting at most until `deadline`. DataLoss for a stream that is not
// a frame (quoting its first bytes) or a malformed or too deeply nested header; Unavailable at
// end of file (the writer is gone) or past the deadline. `exit_fd`, when not -1, is a pidfd of
// the writer: once it is readable (the writer has ended) and no byte is waiting, the read ends at
// once as Unavailable even if another process still holds the pipe open.
StatusOr<Frame> ReadFrame(int fd, std::chrono::steady_clock::time_point deadline, int exit_fd = -1);

}  // namespace onnxgate
