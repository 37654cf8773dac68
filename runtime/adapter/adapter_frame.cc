// Adapter protocol frames: encoding, and reading with every field checked.
#include "runtime/adapter/adapter_frame.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/base/nesting_depth.h"

namespace onnxgate {

namespace {

void PutLe(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t GetLe(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

// Reads exactly n bytes, appending them to out; `what` names the part for messages. Memory grows
// with what arrives, not with what a length field claims. `exit_fd` as for ReadFrame.
Status ReadExactly(int fd, size_t n, std::string* out,
                   std::chrono::steady_clock::time_point deadline, const char* what, int exit_fd) {
  char buf[65536];
  size_t got = 0;
  while (got < n) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return Unavailable(std::string("no answer in time (waiting for the ") + what + ")");
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    pollfd pfds[2] = {{fd, POLLIN, 0}, {exit_fd, POLLIN, 0}};
    const int ready = poll(pfds, exit_fd >= 0 ? 2 : 1,
                           static_cast<int>(std::min<int64_t>(wait.count() + 1, 1000)));
    if (ready < 0 && errno != EINTR) {
      return Unavailable(std::string("poll: ") + std::strerror(errno));
    }
    if (ready <= 0) continue;
    if (pfds[0].revents == 0) {
      if (exit_fd >= 0 && pfds[1].revents != 0) {
        return Unavailable(std::string("the adapter ended (in the ") + what +
                           "; a process it left behind still holds its output open)");
      }
      continue;
    }
    const ssize_t r = read(fd, buf, std::min(sizeof(buf), n - got));
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Unavailable(std::string("read: ") + std::strerror(errno));
    }
    if (r == 0) {
      return Unavailable(std::string("the adapter closed its output (in the ") + what + ", " +
                         std::to_string(got) + " of " + std::to_string(n) + " bytes)");
    }
    out->append(buf, static_cast<size_t>(r));
    got += static_cast<size_t>(r);
  }
  return OkStatus();
}

}  // namespace

std::string QuoteBytes(const std::string& bytes, size_t max_bytes) {
  std::string out;
  const size_t shown = std::min(bytes.size(), max_bytes);
  for (size_t i = 0; i < shown; ++i) {
    const auto u = static_cast<unsigned char>(bytes[i]);
    if (u >= 0x20 && u < 0x7f && u != '\'' && u != '\\') {
      out.push_back(bytes[i]);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", u);
      out += buf;
    }
  }
  out = "'" + out + "'";
  if (shown < bytes.size()) {
    out +=
        " (the first " + std::to_string(shown) + " of " + std::to_string(bytes.size()) + " bytes)";
  }
  return out;
}

StatusOr<std::string> EncodeFrame(const Frame& frame) {
  std::string header;
  try {
    header = frame.header.dump();
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgument(std::string("a request the protocol cannot carry: ") + e.what());
  }
  std::string out(kFrameMagic, sizeof(kFrameMagic));
  PutLe(&out, header.size(), 4);
  PutLe(&out, frame.blobs.size(), 4);
  out += header;
  for (const std::string& blob : frame.blobs) {
    PutLe(&out, blob.size(), 8);
    out += blob;
  }
  return out;
}

Status WriteAll(int fd, const std::string& bytes) {
  // A reader that is gone raises SIGPIPE, which would end this process unless its owner
  // ignores it: block it for the write and take back the one the write raised, if any.
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  Status st = OkStatus();
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      st = Unavailable(std::string("the adapter does not read its input: ") + std::strerror(errno));
      if (errno == EPIPE) {
        const timespec zero{0, 0};
        sigtimedwait(&pipe_only, nullptr, &zero);
      }
      break;
    }
    done += static_cast<size_t>(w);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return st;
}

StatusOr<Frame> ReadFrame(int fd, std::chrono::steady_clock::time_point deadline, int exit_fd) {
  std::string prefix;
  ONNXGATE_RETURN_IF_ERROR(ReadExactly(fd, 12, &prefix, deadline, "frame prefix", exit_fd));
  if (std::memcmp(prefix.data(), kFrameMagic, sizeof(kFrameMagic)) != 0) {
    // Show a little more of what came, so that a stray line is recognisable.
    std::string more;
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, 50) > 0) {
      more.resize(52);
      const ssize_t r = read(fd, more.data(), more.size());
      more.resize(r > 0 ? static_cast<size_t>(r) : 0);
    }
    return DataLoss("not a protocol frame: got " + QuoteBytes(prefix + more) +
                    " where a frame starting 'OGA1' was expected");
  }
  const uint64_t header_bytes = GetLe(prefix.data() + 4, 4);
  const uint64_t blob_count = GetLe(prefix.data() + 8, 4);
  if (header_bytes > kMaxFrameHeaderBytes) {
    return DataLoss("frame header of " + std::to_string(header_bytes) + " bytes (at most " +
                    std::to_string(kMaxFrameHeaderBytes) + ")");
  }
  if (blob_count > kMaxFrameBlobs) {
    return DataLoss("frame with " + std::to_string(blob_count) + " blobs (at most " +
                    std::to_string(kMaxFrameBlobs) + ")");
  }
  std::string header;
  ONNXGATE_RETURN_IF_ERROR(
      ReadExactly(fd, header_bytes, &header, deadline, "frame header", exit_fd));
  Frame frame;
  frame.header_start = header.substr(0, kMaxQuotedBytes);
  if (Status depth =
          CheckNestingDepth(header, NestingSyntax::kJson, kMaxFrameHeaderNesting, "frame header");
      !depth.ok()) {
    return DataLoss(depth.message() + ": " + QuoteBytes(header, 80));
  }
  frame.header = nlohmann::json::parse(header, nullptr, /*allow_exceptions=*/false);
  if (frame.header.is_discarded() || !frame.header.is_object()) {
    return DataLoss("frame header is not a JSON object: " + QuoteBytes(header, 80));
  }
  for (uint64_t i = 0; i < blob_count; ++i) {
    std::string size;
    ONNXGATE_RETURN_IF_ERROR(ReadExactly(fd, 8, &size, deadline, "blob length", exit_fd));
    const uint64_t n = GetLe(size.data(), 8);
    if (n > kMaxFrameBlobBytes) {
      return DataLoss("blob " + std::to_string(i) + " of " + std::to_string(n) +
                      " bytes (at most " + std::to_string(kMaxFrameBlobBytes) + ")");
    }
    std::string blob;
    ONNXGATE_RETURN_IF_ERROR(ReadExactly(fd, n, &blob, deadline, "blob", exit_fd));
    frame.blobs.push_back(std::move(blob));
  }
  return frame;
}

}  // namespace onnxgate
