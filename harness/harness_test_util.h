// A throwaway suite on disk for harness tests: suites/mini/ with one-op cases and their goldens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/run_command.h"
#include "runtime/base/value.h"

namespace onnxgate {

struct MiniCase {
  MiniCase(std::string name, std::string op, Value input, Value expected_output, bool stale = false)
      : name(std::move(name)),
        op(std::move(op)),
        input(std::move(input)),
        expected_output(std::move(expected_output)),
        stale(stale) {}

  std::string name;
  std::string op = "Relu";
  Value input;            // fed as "X"
  Value expected_output;  // expected as "Y"
  bool stale = false;     // write the golden for other model bytes
  // When set, the model file holds these bytes instead of a one-node text model, and is named
  // <case><model_extension>.
  std::optional<std::string> model_bytes;
  std::string model_extension = ".onnxtxt";
  bool omit_input = false;  // the golden has no input "X"
};

// A 1-D float32 tensor holding `v`, as a Value (the mini suite's inputs and outputs).
Value Floats(const std::vector<float>& v);

// A binary one-node model Y = <op>(X) over float[length]; for "Add", Y = X + W with the
// initializer W (float[length]) stored in the external data file `external_location`.
std::string OneNodeModelBytes(const std::string& op, int64_t length,
                              const std::string& external_location = "");

// Creates <root>/suites/mini/{suite.json,models/<case>.onnxtxt} and
// <root>/golden/data/mini/<case>.h5 for each case; returns root.
std::string WriteMiniSuite(const std::string& root, const std::vector<MiniCase>& cases);

// Neg, then Relu, then Abs over float[batch, 4]: a model whose test-broken-relu run departs first
// at its Relu node ("Relu#1", value B) while the node before it agrees.
inline constexpr char kNegReluAbsChain[] = R"(<ir_version: 8, opset_import: ["" : 17]>
chain (float[batch, 4] X) => (float[batch, 4] Y) {
  A = Neg(X)
  B = Relu(A)
  Y = Abs(B)
})";

// A folder for the running gtest test alone (CTest runs the tests of one file in parallel):
// <gtest's TempDir>/<prefix>_<pid>_<suite>.<test>. Not created.
std::string TestRootFor(const std::string& prefix);

// Options that run suites/mini under `root`: two workers, `timeout_s` per case, and JSON, JUnit
// and Markdown reports in <root>/out/.
RunCommandOptions MiniSuiteRunOptions(const std::string& root, double timeout_s);

}  // namespace onnxgate
