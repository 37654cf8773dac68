// A throwaway suite on disk for harness tests: suites/mini/ with one-op cases and their goldens.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/value.h"

namespace onnxgate {

struct MiniCase {
  std::string name;
  std::string op = "Relu";
  Value input;            // fed as "X"
  Value expected_output;  // expected as "Y"
  bool stale = false;     // write the golden for other model bytes
};

// Creates <root>/suites/mini/{suite.json,models/<case>.onnxtxt} and
// <root>/golden/data/mini/<case>.h5 for each case; returns root.
std::string WriteMiniSuite(const std::string& root, const std::vector<MiniCase>& cases);

}  // namespace onnxgate
