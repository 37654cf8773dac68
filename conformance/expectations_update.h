// `onnxgate expectations update` on the file itself: the expectations file of an EP read,
// rewritten from a run and written back under the lock of its folder (runtime/base/file_lock.h),
// so two updates of one file serialize and the second starts from what the first wrote.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "conformance/expectations.h"
#include "runtime/base/file_lock.h"

namespace onnxgate {

struct ExpectationsFileUpdate {
  ExpectationFile before;  // as read under the lock (empty for a new file)
  ExpectationFile after;   // as written
};

// Reads the expectations of `ep` at `path` (LoadExpectationsOrEmpty), rewrites them from `run`
// (UpdateExpectations) and writes them (WriteExpectations), all while holding the lock of the
// file's folder. Unavailable when another writer holds the lock for more than `wait`; the
// errors of the read and the write otherwise. Nothing is written on an error.
StatusOr<ExpectationsFileUpdate> UpdateExpectationsFile(
    const std::string& path, const std::string& ep, const std::vector<CaseRecord>& run,
    std::chrono::milliseconds wait = kFolderLockWait);

}  // namespace onnxgate
