// Generated inputs from what the runtime says the model takes, filled with seeded values.
#include "harness/models/model_inputs.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "harness/zoo/seeded_random.h"
#include "harness/zoo/zoo.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

namespace {

// Parses "<lo> <hi>" with lo < hi; nullopt when malformed.
std::optional<std::pair<int64_t, int64_t>> ParseRange(const std::string& text) {
  std::istringstream in(text);
  int64_t lo = 0, hi = 0;
  if (!(in >> lo >> hi) || lo >= hi) return std::nullopt;
  return std::make_pair(lo, hi);
}

template <typename T>
Tensor FillInts(const Shape& shape, std::pair<int64_t, int64_t> range, zoo::SeededRandom& rng) {
  Tensor t(DataTypeOf<T>::value, shape);
  T* data = t.mutable_data<T>();
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    data[i] = static_cast<T>(rng.UniformInt(range.first, range.second));
  }
  return t;
}

template <typename T>
Tensor FillReals(const Shape& shape, zoo::SeededRandom& rng) {
  Tensor t(DataTypeOf<T>::value, shape);
  T* data = t.mutable_data<T>();
  for (int64_t i = 0; i < t.NumElements(); ++i) data[i] = static_cast<T>(rng.Uniform(-1.0, 1.0));
  return t;
}

// Every name in `ranges` is an integer input of the model.
Status CheckRangesNameIntegerInputs(const std::vector<ValueInfo>& inputs,
                                    const std::string& model_path, const InputRanges& ranges) {
  for (const auto& entry : ranges) {
    const std::string& name = entry.first;  // a structured binding cannot be captured in C++17
    auto it = std::find_if(inputs.begin(), inputs.end(),
                           [&](const ValueInfo& i) { return i.name == name; });
    if (it == inputs.end()) {
      std::string known;
      for (const ValueInfo& i : inputs) known += (known.empty() ? "" : ", ") + i.name;
      return InvalidArgument("--input-range " + name + ": " + model_path + " has no input '" +
                             name + "' (its inputs: " + known + ")");
    }
    if (!IsInteger(it->elem_type)) {
      return InvalidArgument("--input-range " + name + ": input '" + name + "' of " + model_path +
                             " is " + DataTypeName(it->elem_type) +
                             "; ranges apply to integer inputs");
    }
  }
  return OkStatus();
}

}  // namespace

std::string InputRangeMetadataKey(const std::string& input) {
  return std::string(zoo::kInputRangeKeyPrefix) + input;
}

StatusOr<std::vector<InputSpec>> ModelInputSpecs(const LoadedModel& model,
                                                 const std::string& model_path,
                                                 const DimSizes& dims, const InputRanges& ranges) {
  const std::map<std::string, std::string> metadata = model.metadata();
  const std::vector<ValueInfo> inputs = model.inputs();
  ONNXGATE_RETURN_IF_ERROR(CheckRangesNameIntegerInputs(inputs, model_path, ranges));
  std::vector<InputSpec> specs;
  for (const ValueInfo& input : inputs) {
    if (input.kind != Value::Kind::kTensor) {
      return Unimplemented(model_path + ": input '" + input.name +
                           "' is not a tensor; only tensor inputs can be generated");
    }
    InputSpec spec;
    spec.name = input.name;
    spec.dtype = input.elem_type;
    for (const DeclaredDim& d : input.dims) {
      auto sized = dims.find(d.symbol);
      spec.dims.push_back(d.size > 0                                 ? d.size
                          : !d.symbol.empty() && sized != dims.end() ? sized->second
                                                                     : 1);
    }
    const std::string key = InputRangeMetadataKey(input.name);
    if (auto given = ranges.find(input.name); given != ranges.end()) {
      spec.int_range = given->second;
    } else if (auto it = metadata.find(key); it != metadata.end()) {
      spec.int_range = ParseRange(it->second);
      if (!spec.int_range) {
        return InvalidArgument(model_path + ": metadata " + key +
                               " must be \"<lo> <hi>\" with lo < hi, got \"" + it->second + "\"");
      }
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

StatusOr<std::vector<NamedValue>> MakeInputs(const std::vector<InputSpec>& specs, uint32_t seed) {
  zoo::SeededRandom rng(seed);
  std::vector<NamedValue> feeds;
  for (const InputSpec& spec : specs) {
    const Shape shape(spec.dims);
    if (Status valid = shape.Validate(kMaxGeneratedElements); !valid.ok()) {
      return InvalidArgument("input '" + spec.name + "' cannot be generated: " + valid.message());
    }
    const auto range = spec.int_range.value_or(std::make_pair<int64_t, int64_t>(0, 1));
    Tensor t;
    switch (spec.dtype) {
      case DataType::kFloat: t = FillReals<float>(shape, rng); break;
      case DataType::kDouble: t = FillReals<double>(shape, rng); break;
      case DataType::kInt64: t = FillInts<int64_t>(shape, range, rng); break;
      case DataType::kInt32: t = FillInts<int32_t>(shape, range, rng); break;
      case DataType::kInt8: t = FillInts<int8_t>(shape, range, rng); break;
      case DataType::kUint8: t = FillInts<uint8_t>(shape, range, rng); break;
      case DataType::kBool: t = Tensor(DataType::kBool, shape); break;
      default:
        return Unimplemented("cannot generate values for input '" + spec.name +
                             "' of element type " + DataTypeName(spec.dtype));
    }
    feeds.push_back({spec.name, Value::FromTensor(std::move(t))});
  }
  return feeds;
}

}  // namespace onnxgate
