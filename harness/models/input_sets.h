// The data sets of a dataset given to `onnxgate record`: every `--input` that is a NumPy .npz or a
// folder of ONNX TensorProto .pb files is one data set, and so is every such entry of an
// `--inputs-dir` folder (in name order, after the `--input` sets); .pb files given to `--input`
// directly form one data set together. Every set must give the same inputs. Expected outputs, one
// .npz per set, pair with the sets by order (`--expected`) or by file name (`--expected-dir`).
//
// Only names are looked at here: an .npz's array names come from its zip directory (nothing is
// inflated), a .pb's from its TensorProto. Values are read and checked against the model when the
// set is fed (model_feeds.h).
#pragma once

#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

struct InputSet {
  std::string name;   // the .npz's file name without ".npz", the folder's name, or "inputs"
  std::string shown;  // the path as given, for messages
  std::vector<std::string> files;  // one .npz, or .pb files (a folder's in natural name order)
};

// The data sets of `inputs` (--input, in order) and of `inputs_dir` (--inputs-dir; empty: none).
// A folder set holds the folder's .pb files except output_*.pb (the expected outputs of ONNX's
// test-data layout), input_2.pb before input_10.pb. InvalidArgument naming the path: a file that
// is neither .npz nor .pb, loose .pb files mixed with other sets, a folder with no .pb inputs or
// with other entries, an --inputs-dir entry that is neither an .npz nor a folder (names starting
// with '.' are skipped), an --inputs-dir with no sets.
StatusOr<std::vector<InputSet>> InputSetsOf(const std::vector<std::string>& inputs,
                                            const std::string& inputs_dir);

// "data set 2 (in/c.npz)", as messages name a set.
std::string SetLabel(size_t index, const InputSet& set);

// Checks that every set gives the same input names as the first, an unnamed .pb taking the name
// of the model input at its position in `model_inputs`. InvalidArgument naming both sets and the
// names that differ; errors reading a file name the file.
Status CheckSameInputNames(const std::vector<InputSet>& sets,
                           const std::vector<std::string>& model_inputs);

// The expected-outputs .npz of each set, in set order: `expected` paired by order (as many as there
// are sets), or `expected_dir`/<set name>.npz (every set's file present, no other .npz there, set
// names unique). InvalidArgument naming the files or sets that do not pair.
StatusOr<std::vector<std::string>> PairExpectedFiles(const std::vector<InputSet>& sets,
                                                     const std::vector<std::string>& expected,
                                                     const std::string& expected_dir);

}  // namespace onnxgate
