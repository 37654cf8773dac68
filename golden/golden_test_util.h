// Helpers shared by the golden tests: temporary folders, exact value comparison, running h5dump,
// editing HDF5 files in place to build damaged goldens, and running a read in a child process
// with a time and memory bound (for reads that must neither block nor allocate).
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
bool SetInt64Attr(hid_t file, const std::string& object_path, const std::string& name,
                  int64_t value);
bool DeleteAttr(hid_t file, const std::string& object_path, const std::string& name);

// The file's bytes; "" when it cannot be read.
std::string FileBytes(const std::string& path);
// Replaces the file's bytes; false when it cannot be written.
bool WriteBytes(const std::string& path, const std::string& bytes);

// Adds what the reader asks of an input or output object before it looks at its data: name,
// index, kind "tensor", onnx_dtype and a (wrong) sha256.
bool TagAsTensorValue(hid_t obj, const std::string& name, int64_t index,
                      const std::string& onnx_dtype);

// What a forked child running one function did.
struct ChildOutcome {
  bool finished = false;    // exited by itself within the time given
  bool timed_out = false;   // killed when the time was up
  std::string result;       // what the function returned
  std::string stderr_text;  // what the child wrote to stderr
};
// Runs `fn` in a forked child, killing it after `seconds`. With `extra_address_space` > 0 the
// child's RLIMIT_AS is set to its current address space plus that many bytes first, so an
// allocation of more than that fails inside it (proving that nothing that large is allocated).
ChildOutcome RunInChild(const std::function<std::string()>& fn, double seconds,
                        uint64_t extra_address_space = 0);
// ReadGolden(path) through RunInChild: the child's result is "OK" when the golden was read, else
// the error's ToString().
ChildOutcome ReadGoldenInChild(const std::string& path, double seconds,
                               uint64_t extra_address_space = 0);

}  // namespace testing_util
}  // namespace onnxgate
