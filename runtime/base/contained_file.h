// Opening the files that an untrusted model or test case names: external data, a test case's
// model.onnx, data-set folders and input_<k>.pb/output_<k>.pb files.
//
// A name such a file gives is relative to a folder (the model's, the case's) and must not lead out
// of it. The hazards this closes, and how:
// - "..", absolute paths, drive letters, empty components and NUL in the name: refused before any
//   system call (SplitContainedPath).
// - Symbolic links anywhere below the folder, and a folder swapped for a link between a check and
//   the open: nothing is checked by path and then opened. The folder is opened once; the name is
//   resolved beneath that descriptor by openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
//   RESOLVE_NO_MAGICLINKS), or, where the kernel lacks openat2 (ENOSYS) or a seccomp filter
//   refuses it (EPERM), by opening one component at a time with openat(O_NOFOLLOW) from the
//   descriptor of the one before. Either way a link met at any moment is refused, never followed.
// - Hard links: a file with more than one name may be the same inode as a file outside the folder,
//   so st_nlink must be 1.
// - Devices, FIFOs, sockets, folders named as data (/dev/zero never ends, a FIFO blocks forever):
//   the file is opened with O_NONBLOCK and O_NOCTTY, and only a regular file is accepted.
// - Huge files: the size limit is checked at open, and every read is checked against the file's
//   size and a caller-given limit before anything is allocated.
// Every decision is made with fstat on the open descriptor, so what was checked is what is read.
// Every error names the file, the folder and what is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

// protobuf's own limit on one serialized message (INT_MAX bytes): no model.onnx or .pb file can be
// parsed when it is larger, so readers of those refuse it before reading.
inline constexpr uint64_t kMaxProtobufFileBytes = 2147483647;
// onnxgate's own JSON files (suites, expectations, tolerances, baselines, run reports): far more
// than the largest real one, far less than /dev/zero.
inline constexpr uint64_t kMaxJsonFileBytes = uint64_t{256} << 20;
inline constexpr uint64_t kNoFileSizeLimit = UINT64_MAX;

// The components of a name given relative to a folder, with "." components dropped; '\\' counts
// as a separator too, so "..\\x" written on Windows is caught. InvalidArgument, quoting the name,
// when it is empty, holds NUL, is absolute, has a drive letter, contains "..", has an empty
// component ("a//b", "a/") or names no file (".").
StatusOr<std::vector<std::string>> SplitContainedPath(const std::string& relative_path);

// An open regular file, checked on its descriptor. Move-only; closes the descriptor.
class ContainedFile {
 public:
  ContainedFile(ContainedFile&& other) noexcept;
  ContainedFile& operator=(ContainedFile&& other) noexcept;
  ContainedFile(const ContainedFile&) = delete;
  ContainedFile& operator=(const ContainedFile&) = delete;
  ~ContainedFile();

  // The size fstat gave at open.
  uint64_t size() const { return size_; }
  // How messages name the file: "external data 'w.bin' of tensor 'W' in '/x/model'".
  const std::string& name() const { return name_; }

  // Reads `count` bytes at `offset`. Refused before allocating when `count` exceeds `max_bytes`
  // (InvalidArgument) or the range exceeds size() (DataLoss); DataLoss when the file is shorter
  // than that when read (it shrank since it was opened).
  StatusOr<std::string> ReadRange(uint64_t offset, uint64_t count, uint64_t max_bytes) const;
  // Reads size() bytes from the start, under the same rules.
  StatusOr<std::string> ReadAll(uint64_t max_bytes) const;

 private:
  friend class ContainedDir;
  friend StatusOr<ContainedFile> OpenRegularFile(const std::string&, uint64_t, const std::string&);
  ContainedFile(int fd, uint64_t size, std::string name);

  int fd_ = -1;
  uint64_t size_ = 0;
  std::string name_;
};

// An open folder that names are resolved beneath. Move-only; closes the descriptor.
class ContainedDir {
 public:
  // Whether the folder's own path may end in a symbolic link. Links before its last component are
  // followed either way: the caller chose that path, not the model.
  enum class RootLink { kFollow, kRefuse };
  enum class EntryType { kRegular, kDirectory, kSymlink, kOther };
  struct Entry {
    std::string name;
    EntryType type = EntryType::kOther;  // the entry itself, links not followed
  };

  // NotFound when `path` does not exist; InvalidArgument when it is not a folder or (kRefuse) is
  // a symbolic link.
  static StatusOr<ContainedDir> Open(const std::string& path,
                                     RootLink root_link = RootLink::kFollow);

  ContainedDir(ContainedDir&& other) noexcept;
  ContainedDir& operator=(ContainedDir&& other) noexcept;
  ContainedDir(const ContainedDir&) = delete;
  ContainedDir& operator=(const ContainedDir&) = delete;
  ~ContainedDir();

  // The folder's path as given (subfolders: parent's path + "/" + the name), for messages.
  const std::string& path() const { return path_; }

  // Opens the regular file `relative_path` beneath this folder: no link on the way, a regular
  // file with one name, at most `max_file_bytes` long. `subject` names it in messages
  // ("external data 'w.bin' of tensor 'W'"); empty means "'<relative_path>'". Errors read
  // "<subject> in '<folder>': <what is wrong>": InvalidArgument for a bad name, a link, a file
  // that is not regular, a hard link or one over the limit; NotFound when nothing has that name.
  StatusOr<ContainedFile> OpenFile(const std::string& relative_path, uint64_t max_file_bytes,
                                   const std::string& subject = "") const;
  // Opens the folder `relative_path` beneath this one, under the same rules (no link on the way).
  StatusOr<ContainedDir> OpenDir(const std::string& relative_path,
                                 const std::string& subject = "") const;
  // The folder's entries, sorted by name, without "." and "..".
  StatusOr<std::vector<Entry>> List() const;

 private:
  ContainedDir(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  // Opens `parts` beneath fd_ with `flags`: the new descriptor (the caller owns it), or an error
  // "<subject> in '<path>': <why>" saying which component was a link, missing or not a folder.
  StatusOr<int> OpenBeneath(const std::vector<std::string>& parts, int flags,
                            const std::string& subject) const;

  int fd_ = -1;
  std::string path_;
};

// OpenFile on a folder opened by path (links in `root_dir` itself are followed).
StatusOr<ContainedFile> OpenContained(const std::string& root_dir, const std::string& relative_path,
                                      uint64_t max_file_bytes, const std::string& subject = "");

// For a file named by its whole path that must lie inside `root_dir` (a suite's model): `path`
// must be `root_dir` followed by a relative name, compared lexically after dropping "." parts
// and repeated separators ("suite/./models/a.onnx" is inside "suite"); ".." anywhere in `path`
// is refused. Then as OpenContained.
StatusOr<ContainedFile> OpenContainedPath(const std::string& root_dir, const std::string& path,
                                          uint64_t max_file_bytes);

// Opens a file the user named (a model path on the command line or in suite.json): symbolic links
// are followed and hard links accepted, but it must be a regular file of at most `max_file_bytes`
// (a FIFO or /dev/zero is refused without blocking or reading). `what` names the expected kind in
// messages: "<path>: is a FIFO, not a <what>"; NotFound "<path>: no such <what>".
StatusOr<ContainedFile> OpenRegularFile(const std::string& path, uint64_t max_file_bytes,
                                        const std::string& what = "regular file");
// OpenRegularFile, then ReadAll.
StatusOr<std::string> ReadRegularFile(const std::string& path, uint64_t max_file_bytes,
                                      const std::string& what = "regular file");

namespace contained_file_testing {
// Makes every open beneath a folder take the openat(O_NOFOLLOW) walk instead of openat2, as on a
// kernel without openat2, so tests cover both. Not for use outside tests.
void ForceComponentWalk(bool on);
}  // namespace contained_file_testing

}  // namespace onnxgate
