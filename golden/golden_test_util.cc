// Test helpers for the golden library.
#include "golden/golden_test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  if (e.shape() != a.shape()) return where + "shape " + e.shape().ToString() + " vs " + a.shape().ToString();
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
  if (e.elem_type() != a.elem_type()) return "element type " + e.TypeString() + " vs " + a.TypeString();
  switch (e.kind()) {
    case Value::Kind::kTensor: return TensorDifference(e.tensor(), a.tensor(), "");
    case Value::Kind::kSequence:
      if (e.sequence().size() != a.sequence().size()) return "length " + e.TypeString() + " vs " + a.TypeString();
      for (size_t i = 0; i < e.sequence().size(); ++i) {
        std::string d = TensorDifference(e.sequence()[i], a.sequence()[i], "item " + std::to_string(i) + ": ");
        if (!d.empty()) return d;
      }
      return "";
    case Value::Kind::kOptional:
      if (e.optional_inner_kind() != a.optional_inner_kind() || e.has_value() != a.has_value()) {
        return e.TypeString() + " vs " + a.TypeString();
      }
      return e.has_value() ? ValueDifference(e.optional_value(), a.optional_value()) : "";
    case Value::Kind::kNone: return "";
  }
  return "?";
}

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
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

bool SetInt64Attr(hid_t file, const std::string& object_path, const std::string& name, int64_t value) {
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

}  // namespace testing_util
}  // namespace onnxgate
