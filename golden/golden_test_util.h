// Helpers shared by the golden tests: temporary folders, exact value comparison, running h5dump
// and editing HDF5 files in place to build damaged goldens.
#pragma once

#include <hdf5.h>

#include <functional>
#include <string>

#include "runtime/base/value.h"

namespace onnxgate {
namespace testing_util {

// A fresh folder below the system temp folder, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// "" when `a` and `b` are the same value bit for bit (floats compare by bits, so NaN payloads and
// -0 count); otherwise what differs first.
std::string ValueDifference(const Value& expected, const Value& actual);

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
CommandResult RunCommand(const std::string& command);
bool HaveCommand(const std::string& name);

// Opens `path` read-write, calls `edit(file_id)` with HDF5 error printing off, and closes it.
// Returns false when the file cannot be opened or `edit` returns false.
bool EditHdf5File(const std::string& path, const std::function<bool(hid_t)>& edit);
// Replaces (or adds) a scalar string / int64 attribute of the object at `object_path`.
bool SetStringAttr(hid_t file, const std::string& object_path, const std::string& name,
                   const std::string& value);
bool SetInt64Attr(hid_t file, const std::string& object_path, const std::string& name, int64_t value);
bool DeleteAttr(hid_t file, const std::string& object_path, const std::string& name);

// The file's bytes; "" when it cannot be read.
std::string FileBytes(const std::string& path);

}  // namespace testing_util
}  // namespace onnxgate
