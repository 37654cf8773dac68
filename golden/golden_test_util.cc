// Test helpers for the golden library.
#include "golden/golden_test_util.h"

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "golden/golden_file.h"
#include "golden/hdf5_handle.h"

namespace onnxgate {
namespace testing_util {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "onnxgate_golden_XXXXXX").string();
  char* made = ::mkdtemp(pattern.data());
  if (made == nullptr) {
    std::perror("mkdtemp");
    std::abort();
  }
  path_ = made;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {

std::string TensorDifference(const Tensor& e, const Tensor& a, const std::string& where) {
  if (e.dtype() != a.dtype()) {
    return where + "dtype " + DataTypeName(e.dtype()) + " vs " + DataTypeName(a.dtype());
  }
  if (e.shape() != a.shape())
    return where + "shape " + e.shape().ToString() + " vs " + a.shape().ToString();
  if (e.dtype() == DataType::kString) {
    for (int64_t i = 0; i < e.NumElements(); ++i) {
      if (e.data<std::string>()[i] != a.data<std::string>()[i]) {
        return where + "string " + std::to_string(i) + " '" + e.data<std::string>()[i] + "' vs '" +
               a.data<std::string>()[i] + "'";
      }
    }
    return "";
  }
  if (e.ByteSize() > 0 && std::memcmp(e.raw_data(), a.raw_data(), e.ByteSize()) != 0) {
    if (IsPackedSubByte(e.dtype())) {
      for (int64_t i = 0; i < e.NumElements(); ++i) {
        if (e.PackedCode(i) != a.PackedCode(i)) {
          return where + "element " + std::to_string(i) + " " + e.ElementToString(i) + " vs " +
                 a.ElementToString(i);
        }
      }
      return where + "padding bits differ";
    }
    for (int64_t i = 0; i < e.NumElements(); ++i) {
      size_t size = DataTypeSize(e.dtype());
      if (std::memcmp(static_cast<const char*>(e.raw_data()) + i * size,
                      static_cast<const char*>(a.raw_data()) + i * size, size) != 0) {
        return where + "element " + std::to_string(i) + " " + e.ElementToString(i) + " vs " +
               a.ElementToString(i);
      }
    }
  }
  return "";
}

}  // namespace

std::string ValueDifference(const Value& e, const Value& a) {
  if (e.kind() != a.kind()) return "kind " + e.TypeString() + " vs " + a.TypeString();
  if (e.elem_type() != a.elem_type())
    return "element type " + e.TypeString() + " vs " + a.TypeString();
  switch (e.kind()) {
    case Value::Kind::kTensor: return TensorDifference(e.tensor(), a.tensor(), "");
    case Value::Kind::kSequence:
      if (e.sequence().size() != a.sequence().size())
        return "length " + e.TypeString() + " vs " + a.TypeString();
      for (size_t i = 0; i < e.sequence().size(); ++i) {
        std::string d =
            TensorDifference(e.sequence()[i], a.sequence()[i], "item " + std::to_string(i) + ": ");
        if (!d.empty()) return d;
      }
      return "";
    case Value::Kind::kOptional:
      if (e.optional_inner_kind() != a.optional_inner_kind() || e.has_value() != a.has_value()) {
        return e.TypeString() + " vs " + a.TypeString();
      }
      return e.has_value() ? ValueDifference(e.optional_value(), a.optional_value()) : "";
    case Value::Kind::kNone: return "";
    case Value::Kind::kResident: return "a resident tensor, which never leaves a session";
  }
  return "?";
}

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool HaveCommand(const std::string& name) {
  return RunCommand("command -v " + name + " >/dev/null").exit_code == 0;
}

bool EditHdf5File(const std::string& path, const std::function<bool(hid_t)>& edit) {
  SilenceHdf5Errors();
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) return false;
  bool ok = edit(file);
  return H5Fclose(file) >= 0 && ok;
}

bool DeleteAttr(hid_t file, const std::string& object_path, const std::string& name) {
  hid_t obj = H5Oopen(file, object_path.c_str(), H5P_DEFAULT);
  if (obj < 0) return false;
  bool ok = H5Adelete(obj, name.c_str()) >= 0;
  H5Oclose(obj);
  return ok;
}

bool SetStringAttr(hid_t file, const std::string& object_path, const std::string& name,
                   const std::string& value) {
  hid_t obj = H5Oopen(file, object_path.c_str(), H5P_DEFAULT);
  if (obj < 0) return false;
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  bool ok = WriteStringAttribute(obj, name, value, H5Where{"edit", object_path}).ok();
  H5Oclose(obj);
  return ok;
}

bool SetInt64Attr(hid_t file, const std::string& object_path, const std::string& name,
                  int64_t value) {
  hid_t obj = H5Oopen(file, object_path.c_str(), H5P_DEFAULT);
  if (obj < 0) return false;
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  bool ok = WriteInt64Attribute(obj, name, value, H5Where{"edit", object_path}).ok();
  H5Oclose(obj);
  return ok;
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return static_cast<bool>(out.flush());
}

bool TagAsTensorValue(hid_t obj, const std::string& name, int64_t index,
                      const std::string& onnx_dtype) {
  H5Where where{"tag", name};
  return WriteStringAttribute(obj, "name", name, where).ok() &&
         WriteInt64Attribute(obj, "index", index, where).ok() &&
         WriteStringAttribute(obj, "kind", "tensor", where).ok() &&
         WriteStringAttribute(obj, "onnx_dtype", onnx_dtype, where).ok() &&
         WriteStringAttribute(obj, "sha256", std::string(64, '0'), where).ok();
}

namespace {

uint64_t CurrentAddressSpace() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;  // kB
  }
  return 0;
}

// Appends what is readable on `fd` to `out`; false at end of file.
bool Drain(int fd, std::string* out) {
  char buffer[4096];
  ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) out->append(buffer, static_cast<size_t>(n));
  return n > 0 || (n < 0 && errno == EINTR);
}

}  // namespace

ChildOutcome RunInChild(const std::function<std::string()>& fn, double seconds,
                        uint64_t extra_address_space) {
  ChildOutcome outcome;
  int result_pipe[2], err_pipe[2];
  if (::pipe(result_pipe) != 0 || ::pipe(err_pipe) != 0) return outcome;
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) return outcome;
  if (pid == 0) {
    ::close(result_pipe[0]);
    ::close(err_pipe[0]);
    ::dup2(err_pipe[1], STDERR_FILENO);
    if (extra_address_space > 0) {
      struct rlimit limit;
      limit.rlim_cur = limit.rlim_max = CurrentAddressSpace() + extra_address_space;
      ::setrlimit(RLIMIT_AS, &limit);
    }
    std::string result = fn();
    size_t done = 0;
    while (done < result.size()) {
      ssize_t n = ::write(result_pipe[1], result.data() + done, result.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(result_pipe[1]);
  ::close(err_pipe[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  bool result_open = true, err_open = true;
  while (result_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    struct pollfd fds[2] = {{result_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    if (result_open && (fds[0].revents & (POLLIN | POLLHUP)))
      result_open = Drain(result_pipe[0], &outcome.result);
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP)))
      err_open = Drain(err_pipe[0], &outcome.stderr_text);
  }
  int status = 0;
  if (result_open || err_open) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    outcome.timed_out = true;
  } else {
    ::waitpid(pid, &status, 0);
    outcome.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  ::close(result_pipe[0]);
  ::close(err_pipe[0]);
  return outcome;
}

ChildOutcome ReadGoldenInChild(const std::string& path, double seconds,
                               uint64_t extra_address_space) {
  return RunInChild(
      [&] {
        StatusOr<GoldenFile> g = ReadGolden(path);
        return g.ok() ? std::string("OK") : g.status().ToString();
      },
      seconds, extra_address_space);
}

}  // namespace testing_util
}  // namespace onnxgate
