// The shapes a bench measures a model at (bench --dim NAME=SIZE[,SIZE...]): the sizes of the
// symbolic dimensions the model's inputs name, every combination of them its own measurement, and
// the text that names a measurement's shapes in the table and the reports ("batch=4,seq=128",
// names sorted). A --dim applies to the models that have that dimension; one that no measured
// model has is a usage error.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/models/model_inputs.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// --dim as ParseDimFlags gives it: name -> sizes, in the order given.
using DimFlags = std::map<std::string, std::vector<int64_t>>;

// The symbolic dimension names (dim_param) of the main graph's inputs that no initializer
// feeds, sorted.
std::set<std::string> SymbolicInputDims(const onnx::ModelProto& model);

// The shapes to measure a model with symbolic dimensions `model_dims` at: every combination of
// the sizes `dims` gives the names the model has; one empty map when it has none of them.
std::vector<DimSizes> BenchShapesOf(const std::set<std::string>& model_dims, const DimFlags& dims);

// InvalidArgument "--dim NAME: no measured model has a dimension named 'NAME' (...)" for the
// first name in `dims` that none of `dims_by_model` (model name -> its symbolic dimensions) has,
// listing what each model has. OK when every name is some model's.
Status CheckDimsNamed(const DimFlags& dims,
                      const std::map<std::string, std::set<std::string>>& dims_by_model);

// The sizes the feeds give the symbolic dimensions the model declares for its inputs, as
// DimSizesText ("batch=4,seq=128"); empty when it declares none.
std::string BoundShapes(const std::vector<ValueInfo>& inputs, const std::vector<NamedValue>& feeds);

}  // namespace onnxgate
