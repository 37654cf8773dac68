// Writers that rewrite a shared file (suite.json, goldens, latency baselines, expectations) take
// an exclusive lock on the folder that holds it, so concurrent writers serialize and a
// read-modify-write under the lock never loses another writer's change.
//
// The lock is flock(2) on the folder itself, opened read-only: the file cannot be the lock, since
// writes replace it by rename (runtime/base/atomic_file.h), so two writers would lock two
// different inodes; and a lock file beside it would be left in the repository. flock locks belong
// to an open file description: two FolderLocks on one folder exclude each other in one process as
// across processes, so a thread must not take a second lock on a folder it already holds.
#pragma once

#include <chrono>
#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

// How long a writer waits for another writer to finish before giving up.
inline constexpr std::chrono::milliseconds kFolderLockWait{std::chrono::minutes(5)};

// An exclusive flock(2) on a folder, held until destruction.
class FolderLock {
 public:
  // Locks `folder` (created when missing), waiting at most `wait` for another holder. `what`
  // names the file being written, for messages. Unavailable naming the folder and the wait when
  // another writer still holds it; NotFound when the folder cannot be created or opened.
  static StatusOr<FolderLock> Acquire(const std::string& folder, const std::string& what,
                                      std::chrono::milliseconds wait = kFolderLockWait);

  FolderLock(FolderLock&& other) noexcept;
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();

 private:
  explicit FolderLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// FolderLock::Acquire on the folder that holds the file `path` ("." for a bare name).
StatusOr<FolderLock> LockFolderOf(const std::string& path,
                                  std::chrono::milliseconds wait = kFolderLockWait);

}  // namespace onnxgate
