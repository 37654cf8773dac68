// Folder locks for writers of shared files (see file_lock.h).
#include "runtime/base/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>
#include <utility>

namespace onnxgate {

namespace {

namespace fs = std::filesystem;

// Waits between tries grow from 1 ms to this, so a short hold costs little and a long one
// little CPU.
constexpr std::chrono::milliseconds kMaxPollInterval{50};

std::string Seconds(std::chrono::milliseconds wait) {
  return std::to_string(wait.count() / 1000) + "." + std::to_string(wait.count() % 1000 / 100) +
         " s";
}

}  // namespace

StatusOr<FolderLock> FolderLock::Acquire(const std::string& folder, const std::string& what,
                                         std::chrono::milliseconds wait) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    return NotFound("cannot create folder " + folder + " to write " + what + ": " + ec.message());
  }
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return NotFound("cannot open folder " + folder + " to lock it for writing " + what + ": " +
                    std::strerror(errno));
  }
  FolderLock lock(fd);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  std::chrono::milliseconds interval{1};
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) {
      return Unavailable("cannot lock folder " + folder + " for writing " + what + ": " +
                         std::strerror(errno));
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return Unavailable("another writer has held folder " + folder + " locked for more than " +
                         Seconds(wait) + "; " + what + " was not written");
    }
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(interval, deadline - now));
    interval = std::min(interval * 2, kMaxPollInterval);
  }
  return StatusOr<FolderLock>(std::move(lock));
}

FolderLock::FolderLock(FolderLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

StatusOr<FolderLock> LockFolderOf(const std::string& path, std::chrono::milliseconds wait) {
  const fs::path parent = fs::path(path).parent_path();
  return FolderLock::Acquire(parent.empty() ? std::string(".") : parent.string(), path, wait);
}

}  // namespace onnxgate
