// For runtime tests: a scratch folder removed at the end of the test, models written from ONNX
// text into it, and the path of runtime/testdata (TestdataPath needs the test target to define
// ONNXGATE_RUNTIME_TESTDATA_DIR).
#pragma once

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/model/model.h"

namespace onnxgate {

class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = ::testing::TempDir() + "/onnxgate_runtime_XXXXXX";
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `bytes` to `name` below the folder and returns the full path.
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::string full = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(full).parent_path());
    std::ofstream(full, std::ios::binary) << bytes;
    return full;
  }
  // Parses ONNX text and writes it as a binary model; a parse error fails the test.
  std::string WriteModel(const std::string& name, const std::string& text) const {
    auto proto = Model::ParseText(text, name);
    EXPECT_TRUE(proto.ok()) << proto.status().ToString();
    return Write(name, proto.ok() ? proto->SerializeAsString() : std::string());
  }

 private:
  std::string path_;
};

inline std::string TestdataPath(const std::string& name) {
  return std::string(ONNXGATE_RUNTIME_TESTDATA_DIR) + "/" + name;
}

}  // namespace onnxgate
