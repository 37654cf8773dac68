// One ONNX backend test case folder (model.onnx + test_data_set_<i>/input_<k>.pb, output_<k>.pb)
// loaded into memory: the model's bytes and facts, and its data sets as golden sets.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "golden/golden_file.h"
#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

// A graph input or output as the model declares it.
struct DeclaredValue {
  std::string name;
  Value::Kind kind = Value::Kind::kTensor;
  DataType elem_type = DataType::kUndefined;
  Value::Kind optional_inner_kind = Value::Kind::kNone;  // for optionals
};

struct OnnxTestCase {
  std::string name;         // the folder name, e.g. "test_abs"
  std::string dir;          // the folder
  std::string model_bytes;  // model.onnx exactly as stored
  std::vector<DeclaredValue> inputs;
  std::vector<DeclaredValue> outputs;
  std::vector<std::pair<std::string, int64_t>> opset_imports;  // model order; "" = ai.onnx
  std::vector<std::string> op_types;  // distinct, in order of first use, subgraphs included
  // Locations of external-data files the model references, relative to its folder.
  std::vector<std::string> external_data;
  std::vector<GoldenSet> sets;  // one per test_data_set_<i>, in order of i
};

// Loads the case in `dir`. InvalidArgument / DataLoss / NotFound / Unimplemented name the file and
// what is wrong (no model.onnx, a model or .pb that does not parse, a gap in input_<k> numbering,
// more files than the model has inputs, a value kind the model does not declare, an external-data
// location that leaves the folder).
StatusOr<OnnxTestCase> LoadOnnxTestCase(const std::string& dir);

}  // namespace onnxgate
