// Contained opens: openat2 beneath a folder's descriptor (or an openat(O_NOFOLLOW) walk), every
// decision made with fstat on the opened descriptor, bounded reads.
#include "runtime/base/contained_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>

namespace onnxgate {

namespace {

std::atomic<bool> g_force_walk{false};

constexpr int kFileFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
constexpr int kDirFlags = O_PATH | O_DIRECTORY | O_CLOEXEC;
// pread moves at most about 2 GiB per call on Linux; larger reads go in pieces.
constexpr uint64_t kMaxPread = uint64_t{1} << 30;

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string Join(const std::vector<std::string>& parts, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

// "a folder", "a FIFO", ...: what a non-regular file is, for messages.
std::string KindOf(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "a file of unknown kind";
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

// openat2 beneath `dirfd`; -1 with errno set on failure (ENOSYS where the kernel lacks it).
int OpenAt2(int dirfd, const std::string& path, int flags) {
  open_how how{};
  how.flags = static_cast<uint64_t>(flags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  long fd;
  do {
    fd = syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof(how));
  } while (fd < 0 && errno == EINTR);
  return static_cast<int>(fd);
}

// One component at a time from `dirfd`, never following a link: each folder on the way is held
// open, so swapping it for a link later changes nothing.
int OpenByWalk(int dirfd, const std::vector<std::string>& parts, int flags) {
  Fd cur;
  int at = dirfd;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    int next = openat(at, parts[i].c_str(), kDirFlags | O_NOFOLLOW);
    if (next < 0) return -1;
    cur.reset(next);
    at = next;
  }
  int fd;
  do {
    fd = openat(at, parts.back().c_str(), flags | O_NOFOLLOW);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// Why opening `parts` beneath `dirfd` failed with `err`: finds the first component that is a
// link, not a folder, or missing. Only for the message; the refusal itself was the kernel's.
std::string Diagnose(int dirfd, const std::vector<std::string>& parts, int err, bool want_dir) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string prefix = Join(parts, i + 1);
    const bool last = i + 1 == parts.size();
    struct stat st;
    if (fstatat(dirfd, prefix.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) return last ? "not found" : Quote(prefix) + " not found";
      return "cannot open " + Quote(prefix) + ": " + std::strerror(errno);
    }
    if (S_ISLNK(st.st_mode)) {
      return (last ? std::string("is") : Quote(prefix) + " is") +
             " a symbolic link; a link may lead outside that folder";
    }
    if ((!last || want_dir) && !S_ISDIR(st.st_mode)) {
      return Quote(prefix) + " is " + KindOf(st.st_mode) + ", not a folder";
    }
    if (last && !want_dir && !S_ISREG(st.st_mode)) {
      return "is " + KindOf(st.st_mode) + ", not a regular file";
    }
  }
  if (err == ELOOP) return "goes through a symbolic link; a link may lead outside that folder";
  if (err == EXDEV) return "leads outside that folder";
  if (err == ENOENT) return "not found";
  return std::string("cannot open: ") + std::strerror(err);
}

// Nothing there (or not allowed to look) is NotFound; everything else is a name that breaks a rule.
StatusCode CodeFor(int err) {
  return err == ENOENT || err == EACCES ? StatusCode::kNotFound : StatusCode::kInvalidArgument;
}

// pread until `count` bytes are in, or the file ends early.
Status PreadAll(int fd, char* out, uint64_t offset, uint64_t count, const std::string& name) {
  uint64_t done = 0;
  while (done < count) {
    size_t want = static_cast<size_t>(std::min(count - done, kMaxPread));
    ssize_t n = pread(fd, out + done, want, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return DataLoss(name + ": reading " + std::to_string(count) + " bytes at offset " +
                      std::to_string(offset) + " failed: " + std::strerror(errno));
    }
    if (n == 0) {
      return DataLoss(name + ": reading " + std::to_string(count) + " bytes at offset " +
                      std::to_string(offset) + " ended after " + std::to_string(done) +
                      " bytes; the file shrank after it was opened");
    }
    done += static_cast<uint64_t>(n);
  }
  return OkStatus();
}

}  // namespace

namespace {

// SplitContainedPath's rules; on a broken one, *why says which and the result is empty.
std::vector<std::string> SplitPath(const std::string& path, std::string* why) {
  auto refuse = [&](const std::string& reason) {
    *why = reason;
    return std::vector<std::string>();
  };
  if (path.empty()) return refuse("is empty");
  if (path.find('\0') != std::string::npos) return refuse("contains a NUL character");
  if (path[0] == '/' || path[0] == '\\') {
    return refuse("is absolute; it must be relative to its folder");
  }
  if (path.size() >= 2 && path[1] == ':') {
    return refuse("has a drive letter; it must be relative to its folder");
  }
  std::vector<std::string> parts;
  std::string part;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/' && path[i] != '\\') {
      part += path[i];
      continue;
    }
    if (part == "..") return refuse("contains '..'; it must stay inside its folder");
    if (part.empty()) return refuse("has an empty component ('//' or a trailing separator)");
    if (part != ".") parts.push_back(part);
    part.clear();
  }
  if (parts.empty()) return refuse("names no file");
  return parts;
}

}  // namespace

StatusOr<std::vector<std::string>> SplitContainedPath(const std::string& path) {
  std::string why;
  std::vector<std::string> parts = SplitPath(path, &why);
  if (parts.empty()) return InvalidArgument(Quote(path) + " " + why);
  return parts;
}

// ---- ContainedFile ----

ContainedFile::ContainedFile(int fd, uint64_t size, std::string name)
    : fd_(fd), size_(size), name_(std::move(name)) {}

ContainedFile::ContainedFile(ContainedFile&& other) noexcept
    : fd_(other.fd_), size_(other.size_), name_(std::move(other.name_)) {
  other.fd_ = -1;
}

ContainedFile& ContainedFile::operator=(ContainedFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    size_ = other.size_;
    name_ = std::move(other.name_);
    other.fd_ = -1;
  }
  return *this;
}

ContainedFile::~ContainedFile() {
  if (fd_ >= 0) close(fd_);
}

StatusOr<std::string> ContainedFile::ReadRange(uint64_t offset, uint64_t count,
                                               uint64_t max_bytes) const {
  if (count > max_bytes) {
    return InvalidArgument(name_ + ": reading " + std::to_string(count) +
                           " bytes is more than the limit of " + std::to_string(max_bytes));
  }
  if (offset > size_ || count > size_ - offset) {
    return DataLoss(name_ + ": " + std::to_string(count) + " bytes at offset " +
                    std::to_string(offset) + " lie beyond its " + std::to_string(size_) + " bytes");
  }
  std::string bytes;
  try {
    bytes.resize(static_cast<size_t>(count));
  } catch (const std::exception&) {  // std::bad_alloc, or std::length_error past max_size()
    return Unavailable(name_ + ": cannot allocate " + std::to_string(count) + " bytes to read it");
  }
  ONNXGATE_RETURN_IF_ERROR(PreadAll(fd_, bytes.data(), offset, count, name_));
  return bytes;
}

StatusOr<std::string> ContainedFile::ReadAll(uint64_t max_bytes) const {
  return ReadRange(0, size_, max_bytes);
}

// ---- ContainedDir ----

ContainedDir::ContainedDir(ContainedDir&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

ContainedDir& ContainedDir::operator=(ContainedDir&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

ContainedDir::~ContainedDir() {
  if (fd_ >= 0) close(fd_);
}

StatusOr<ContainedDir> ContainedDir::Open(const std::string& path, RootLink root_link) {
  if (path.empty()) return InvalidArgument("no folder given (empty path)");
  int flags = kDirFlags | (root_link == RootLink::kRefuse ? O_NOFOLLOW : 0);
  int fd = open(path.c_str(), flags);
  if (fd >= 0) return ContainedDir(fd, path);
  const int err = errno;
  struct stat st;
  if (err == ENOENT || lstat(path.c_str(), &st) != 0) {
    return NotFound(Quote(path) + ": no such folder");
  }
  if (S_ISLNK(st.st_mode) && root_link == RootLink::kRefuse) {
    return InvalidArgument(Quote(path) +
                           ": is a symbolic link; it must be a real folder, as a "
                           "link may lead anywhere");
  }
  if (err == ENOTDIR) return InvalidArgument(Quote(path) + ": is not a folder");
  return NotFound(Quote(path) + ": cannot open the folder: " + std::strerror(err));
}

StatusOr<int> ContainedDir::OpenBeneath(const std::vector<std::string>& parts, int flags,
                                        const std::string& subject) const {
  int fd = -1;
  bool walked = g_force_walk.load(std::memory_order_relaxed);
  if (!walked) {
    fd = OpenAt2(fd_, Join(parts, parts.size()), flags);
    // No openat2 (ENOSYS; E2BIG/EINVAL from a kernel that does not know these flags), a seccomp
    // filter that refuses it (EPERM), or a rename during the lookup (EAGAIN): walk instead.
    if (fd < 0 && (errno == ENOSYS || errno == EPERM || errno == E2BIG || errno == EINVAL ||
                   errno == EAGAIN)) {
      walked = true;
    }
  }
  if (walked) fd = OpenByWalk(fd_, parts, flags);
  if (fd >= 0) return fd;
  const int err = errno;
  return Status(CodeFor(err), subject + " in " + Quote(path_) + ": " +
                                  Diagnose(fd_, parts, err, (flags & O_DIRECTORY) != 0));
}

StatusOr<ContainedFile> ContainedDir::OpenFile(const std::string& relative_path,
                                               uint64_t max_file_bytes,
                                               const std::string& subject_in) const {
  const std::string subject = subject_in.empty() ? Quote(relative_path) : subject_in;
  std::string why;
  const std::vector<std::string> parts = SplitPath(relative_path, &why);
  if (parts.empty()) return InvalidArgument(subject + " in " + Quote(path_) + ": " + why);
  ONNXGATE_ASSIGN_OR_RETURN(int raw_fd, OpenBeneath(parts, kFileFlags, subject));
  Fd fd(raw_fd);
  const std::string name = subject + " in " + Quote(path_);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) {
    return NotFound(name + ": cannot stat: " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return InvalidArgument(name + ": is " + KindOf(st.st_mode) + ", not a regular file");
  }
  if (st.st_nlink != 1) {
    return InvalidArgument(name + ": is a hard link (" + std::to_string(st.st_nlink) +
                           " names); a file with other names may lie outside that folder");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_file_bytes) {
    return InvalidArgument(name + ": is " + std::to_string(size) +
                           " bytes, more than the limit of " + std::to_string(max_file_bytes));
  }
  return ContainedFile(fd.release(), size, name);
}

StatusOr<ContainedDir> ContainedDir::OpenDir(const std::string& relative_path,
                                             const std::string& subject_in) const {
  const std::string subject = subject_in.empty() ? Quote(relative_path) : subject_in;
  std::string why;
  const std::vector<std::string> parts = SplitPath(relative_path, &why);
  if (parts.empty()) return InvalidArgument(subject + " in " + Quote(path_) + ": " + why);
  ONNXGATE_ASSIGN_OR_RETURN(int fd, OpenBeneath(parts, kDirFlags, subject));
  return ContainedDir(fd, path_ + "/" + Join(parts, parts.size()));
}

StatusOr<std::vector<ContainedDir::Entry>> ContainedDir::List() const {
  // An O_PATH descriptor cannot be read; open the folder itself for reading through it.
  int fd = openat(fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return NotFound("cannot list " + Quote(path_) + ": " + std::strerror(errno));
  DIR* dir = fdopendir(fd);
  if (dir == nullptr) {
    int err = errno;
    close(fd);
    return NotFound("cannot list " + Quote(path_) + ": " + std::strerror(err));
  }
  std::vector<Entry> entries;
  errno = 0;
  while (struct dirent* d = readdir(dir)) {
    std::string name = d->d_name;
    if (name == "." || name == "..") continue;
    Entry e;
    e.name = name;
    struct stat st;
    if (fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISREG(st.st_mode)) {
        e.type = EntryType::kRegular;
      } else if (S_ISDIR(st.st_mode)) {
        e.type = EntryType::kDirectory;
      } else if (S_ISLNK(st.st_mode)) {
        e.type = EntryType::kSymlink;
      }
    }
    entries.push_back(std::move(e));
    errno = 0;
  }
  const int err = errno;
  closedir(dir);
  if (err != 0) return NotFound("cannot list " + Quote(path_) + ": " + std::strerror(err));
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return entries;
}

// ---- Free functions ----

StatusOr<ContainedFile> OpenContained(const std::string& root_dir, const std::string& relative_path,
                                      uint64_t max_file_bytes, const std::string& subject) {
  ONNXGATE_ASSIGN_OR_RETURN(ContainedDir root, ContainedDir::Open(root_dir));
  return root.OpenFile(relative_path, max_file_bytes, subject);
}

StatusOr<ContainedFile> OpenContainedPath(const std::string& root_dir, const std::string& path,
                                          uint64_t max_file_bytes) {
  // Both split on '/' with "." and empty parts dropped, so only the lexical prefix decides.
  auto split = [](const std::string& p) {
    std::vector<std::string> parts;
    std::string part;
    for (size_t i = 0; i <= p.size(); ++i) {
      if (i < p.size() && p[i] != '/') {
        part += p[i];
      } else {
        if (!part.empty() && part != ".") parts.push_back(part);
        part.clear();
      }
    }
    return parts;
  };
  const std::vector<std::string> root = split(root_dir);
  const std::vector<std::string> full = split(path);
  auto outside = [&](const std::string& why) {
    return InvalidArgument(Quote(path) + " " + why + " " + Quote(root_dir));
  };
  if (std::find(full.begin(), full.end(), "..") != full.end()) {
    return outside("contains '..'; it must lie plainly inside");
  }
  const bool same_anchor =
      root_dir.empty() || path.empty() || (root_dir[0] == '/') == (path[0] == '/');
  if (root_dir.empty() || !same_anchor || full.size() <= root.size() ||
      !std::equal(root.begin(), root.end(), full.begin())) {
    return outside("is not inside");
  }
  return OpenContained(root_dir,
                       Join(std::vector<std::string>(full.begin() + root.size(), full.end()),
                            full.size() - root.size()),
                       max_file_bytes);
}

StatusOr<ContainedFile> OpenRegularFile(const std::string& path, uint64_t max_file_bytes,
                                        const std::string& what) {
  int raw;
  do {
    raw = open(path.c_str(), kFileFlags);
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return NotFound(path + ": no such " + what);
    return NotFound(path + ": cannot open the " + what + ": " + std::strerror(errno));
  }
  Fd fd(raw);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) {
    return NotFound(path + ": cannot stat the " + what + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return InvalidArgument(path + ": is " + KindOf(st.st_mode) + ", not a " + what);
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_file_bytes) {
    return InvalidArgument(path + ": is " + std::to_string(size) +
                           " bytes, more than the limit of " + std::to_string(max_file_bytes) +
                           " for a " + what);
  }
  return ContainedFile(fd.release(), size, path);
}

StatusOr<std::string> ReadRegularFile(const std::string& path, uint64_t max_file_bytes,
                                      const std::string& what) {
  ONNXGATE_ASSIGN_OR_RETURN(ContainedFile file, OpenRegularFile(path, max_file_bytes, what));
  return file.ReadAll(max_file_bytes);
}

namespace contained_file_testing {
void ForceComponentWalk(bool on) { g_force_walk.store(on, std::memory_order_relaxed); }
}  // namespace contained_file_testing

}  // namespace onnxgate
