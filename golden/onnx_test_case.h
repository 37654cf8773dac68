// One ONNX backend test case folder (model.onnx + test_data_set_<i>/input_<k>.pb, output_<k>.pb)
// loaded into memory: the model's bytes and facts, its external data files and its data sets as
// golden sets.
//
// A case folder is untrusted input (`onnxgate import-onnx-tests` reads folders downloaded from
// anywhere), so every file in it is opened through runtime/base/contained_file.h: the case folder
// and its data-set folders must be real folders (not symbolic links), and model.onnx, the .pb files
// and external data are opened beneath the case folder's descriptor, each a regular file with one
// name (no link, no hard link, no FIFO or device) of at most kMaxTestCaseFileBytes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "golden/golden_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

// The largest model.onnx, .pb or external data file a case may hold: protobuf's own limit on one
// message (2 GiB - 1), which no model or value file can exceed and still parse. It also bounds
// the memory one external data file of a case costs.
inline constexpr uint64_t kMaxTestCaseFileBytes = kMaxProtobufFileBytes;

// A graph input or output as the model declares it.
struct DeclaredValue {
  std::string name;
  int64_t graph_index = 0;  // position in the model's graph.input / graph.output
  Value::Kind kind = Value::Kind::kTensor;
  DataType elem_type = DataType::kUndefined;
  Value::Kind optional_inner_kind = Value::Kind::kNone;  // for optionals
};

struct OnnxTestCase {
  std::string name;         // the folder name, e.g. "test_abs"
  std::string dir;          // the folder
  std::string model_bytes;  // model.onnx exactly as stored
  // The graph inputs the test data feeds: input_<k>.pb is inputs[k]. These are the graph inputs
  // without an initializer, in graph order, as ONNX's runner binds them; a graph input that has an
  // initializer (a weight with a default, as IR < 4 models must list them) is in
  // initializer_inputs instead and keeps its initializer's value.
  std::vector<DeclaredValue> inputs;
  std::vector<std::string> initializer_inputs;  // graph order
  std::vector<DeclaredValue> outputs;
  std::vector<std::pair<std::string, int64_t>> opset_imports;  // model order; "" = ai.onnx
  std::vector<std::string> op_types;  // distinct, in order of first use, subgraphs included
  // The external-data files the model references, each read once after its tensors were checked.
  struct ExternalFile {
    std::string location;  // relative to the case folder, normalized: "data/w.bin"
    std::string bytes;     // the whole file
  };
  std::vector<ExternalFile> external_data;  // sorted by location
  std::vector<GoldenSet> sets;              // one per test_data_set_<i>, in order of i
};

// Loads the case in `dir`. InvalidArgument / DataLoss / NotFound / Unimplemented name the file and
// what is wrong (no model.onnx, a model or .pb that does not parse, a gap in input_<k> numbering,
// more files than the model has inputs to feed, a value kind the model does not declare, a
// symbolic link, hard link, FIFO or oversized file where a file is expected, external data that
// breaks runtime/proto/external_data.h's rules). A graph input or output whose type a golden
// cannot hold (a map, a sequence of maps, a sparse tensor, an opaque value: runtime/base/value.h
// has tensors, sequences of tensors and optionals of either only) is Unimplemented, naming the
// value and its type.
StatusOr<OnnxTestCase> LoadOnnxTestCase(const std::string& dir);

}  // namespace onnxgate
