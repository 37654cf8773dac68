// Feeds for a user's model from files or a seed (see model_feeds.h).
#include "harness/models/model_feeds.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "harness/models/model_inputs.h"
#include "harness/models/npz_reader.h"
#include "runtime/base/contained_file.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A whole number of at most 18 digits, optionally negative; nullopt otherwise.
std::optional<int64_t> ParseWholeNumber(const std::string& text) {
  const size_t digits_at = !text.empty() && text[0] == '-' ? 1 : 0;
  if (text.size() == digits_at || text.size() - digits_at > 18 ||
      text.find_first_not_of("0123456789", digits_at) != std::string::npos) {
    return std::nullopt;
  }
  return std::stoll(text);
}

std::string ShapeText(const std::vector<int64_t>& dims) { return Shape(dims).ToString(); }

// The symbolic dimension names the model's inputs use.
std::set<std::string> SymbolsOf(const std::vector<ValueInfo>& inputs) {
  std::set<std::string> symbols;
  for (const ValueInfo& input : inputs) {
    for (const DeclaredDim& d : input.dims) {
      if (!d.symbol.empty()) symbols.insert(d.symbol);
    }
  }
  return symbols;
}

// A given tensor against the declared input: element type, rank, fixed sizes and --dim sizes.
Status CheckAgainstDeclared(const Tensor& t, const ValueInfo& input, const DimSizes& dims,
                            const std::string& source) {
  if (input.kind != Value::Kind::kTensor) {
    return InvalidArgument(source + ": input '" + input.name + "' is not a tensor in the model");
  }
  if (input.elem_type != DataType::kUndefined && t.dtype() != input.elem_type) {
    return InvalidArgument(source + ": input '" + input.name + "' is " +
                           DataTypeShortName(t.dtype()) + ", the model declares " +
                           DataTypeShortName(input.elem_type));
  }
  if (!input.has_shape) return OkStatus();
  const std::vector<int64_t>& got = t.shape().dims();
  if (got.size() != input.dims.size()) {
    return InvalidArgument(source + ": input '" + input.name + "' has shape " + ShapeText(got) +
                           ", the model declares rank " + std::to_string(input.dims.size()));
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const DeclaredDim& d = input.dims[i];
    int64_t want = d.size;
    std::string why = "the model fixes it";
    if (want < 0 && !d.symbol.empty()) {
      if (auto it = dims.find(d.symbol); it != dims.end()) {
        want = it->second;
        why = "--dim " + d.symbol + "=" + std::to_string(want);
      }
    }
    if (want >= 0 && got[i] != want) {
      return InvalidArgument(source + ": input '" + input.name + "' has shape " + ShapeText(got) +
                             ": dimension " + std::to_string(i) + " is " + std::to_string(got[i]) +
                             ", " + why + " at " + std::to_string(want));
    }
  }
  return OkStatus();
}

// One TensorProto file: its name (empty when it has none) and its tensor.
StatusOr<std::pair<std::string, Tensor>> ReadTensorProtoFile(const std::string& path) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string bytes,
                            ReadRegularFile(path, kMaxProtobufFileBytes, "TensorProto file"));
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) {
    return InvalidArgument(path + ": not a serialized ONNX TensorProto");
  }
  // External data resolves beside the .pb file, as ONNX's test data does.
  const std::string dir = fs::path(path).parent_path().string();
  StatusOr<Tensor> tensor = TensorFromProto(proto, dir.empty() ? std::string(".") : dir);
  if (!tensor.ok()) return InvalidArgument(path + ": " + tensor.status().message());
  return std::make_pair(proto.name(), std::move(tensor).value());
}

// Tensors by input name from the files: one .npz, or .pb files bound by name or position.
StatusOr<std::map<std::string, std::pair<Tensor, std::string>>> ReadGivenTensors(
    const std::vector<ValueInfo>& inputs, const std::vector<std::string>& files,
    const std::string& model_path) {
  std::map<std::string, std::pair<Tensor, std::string>> given;  // name -> (tensor, source)
  std::set<std::string> declared;
  for (const ValueInfo& input : inputs) declared.insert(input.name);
  const bool npz = std::any_of(files.begin(), files.end(),
                               [](const std::string& f) { return EndsWith(f, ".npz"); });
  if (npz) {
    if (files.size() != 1) {
      return InvalidArgument("give either one .npz or .pb files, not both or several .npz (" +
                             std::to_string(files.size()) + " files given)");
    }
    // Only the model's inputs are inflated, within the .npz budget (npz_reader.h).
    ONNXGATE_ASSIGN_OR_RETURN(NpzArrays npz, ReadNpzFile(files[0], NpzRequest{declared}));
    if (!npz.unread.empty()) {
      return InvalidArgument(files[0] + ": array '" + npz.unread.front() + "' is not an input of " +
                             model_path);
    }
    for (auto& [name, tensor] : npz.arrays) {
      given.emplace(name, std::make_pair(std::move(tensor), files[0] + " array '" + name + "'"));
    }
    return given;
  }
  if (files.size() > inputs.size()) {
    return InvalidArgument(std::to_string(files.size()) + " input files given, " + model_path +
                           " takes " + std::to_string(inputs.size()) + " input(s)");
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (!EndsWith(files[i], ".pb")) {
      return InvalidArgument(files[i] + ": an input file is a TensorProto .pb or a NumPy .npz");
    }
    ONNXGATE_ASSIGN_OR_RETURN(auto named, ReadTensorProtoFile(files[i]));
    const std::string name = named.first.empty() ? inputs[i].name : named.first;
    if (!declared.count(name)) {
      return InvalidArgument(files[i] + ": tensor '" + name + "' is not an input of " + model_path);
    }
    if (!given.emplace(name, std::make_pair(std::move(named.second), files[i])).second) {
      return InvalidArgument(files[i] + ": input '" + name + "' is given twice");
    }
  }
  return given;
}

}  // namespace

StatusOr<std::vector<NamedValue>> MakeModelFeeds(const LoadedModel& model,
                                                 const std::string& model_path,
                                                 const FeedSource& source,
                                                 const InputRanges& ranges) {
  const std::vector<ValueInfo> inputs = model.inputs();
  const std::set<std::string> symbols = SymbolsOf(inputs);
  for (const auto& [name, size] : source.dims) {
    if (!symbols.count(name)) {
      std::string known;
      for (const std::string& s : symbols) known += (known.empty() ? "" : ", ") + s;
      return InvalidArgument("--dim " + name + ": " + model_path +
                             " has no input dimension named '" + name + "' (" +
                             (known.empty() ? std::string("it has no named dimensions")
                                            : "its named dimensions: " + known) +
                             ")");
    }
  }
  if (source.files.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<InputSpec> specs,
                              ModelInputSpecs(model, model_path, source.dims, ranges));
    return MakeInputs(specs, source.seed);
  }
  ONNXGATE_ASSIGN_OR_RETURN(auto given, ReadGivenTensors(inputs, source.files, model_path));
  std::vector<NamedValue> feeds;
  for (const ValueInfo& input : inputs) {
    auto it = given.find(input.name);
    if (it == given.end()) {
      return InvalidArgument(model_path + ": input '" + input.name +
                             "' is not given by the input files");
    }
    ONNXGATE_RETURN_IF_ERROR(
        CheckAgainstDeclared(it->second.first, input, source.dims, it->second.second));
    feeds.push_back({input.name, Value::FromTensor(std::move(it->second.first))});
  }
  return feeds;
}

StatusOr<std::map<std::string, std::vector<int64_t>>> ParseDimFlags(
    const std::vector<std::string>& flags) {
  std::map<std::string, std::vector<int64_t>> dims;
  for (const std::string& flag : flags) {
    const size_t eq = flag.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == flag.size()) {
      return InvalidArgument("--dim '" + flag + "': expected NAME=SIZE[,SIZE...], e.g. batch=1,4");
    }
    const std::string name = flag.substr(0, eq);
    std::vector<int64_t> sizes;
    size_t pos = eq + 1;
    while (pos <= flag.size()) {
      size_t comma = flag.find(',', pos);
      if (comma == std::string::npos) comma = flag.size();
      const std::string item = flag.substr(pos, comma - pos);
      if (item.empty() || item.size() > 12 ||
          item.find_first_not_of("0123456789") != std::string::npos || std::stoll(item) < 1) {
        return InvalidArgument("--dim '" + flag + "': size '" + item +
                               "' is not a whole number of at least 1");
      }
      sizes.push_back(std::stoll(item));
      pos = comma + 1;
    }
    if (!dims.emplace(name, std::move(sizes)).second) {
      return InvalidArgument("--dim " + name + " is given twice");
    }
  }
  return dims;
}

std::vector<DimSizes> DimCombinations(const std::map<std::string, std::vector<int64_t>>& dims) {
  std::vector<DimSizes> combos = {DimSizes{}};
  for (const auto& [name, sizes] : dims) {
    std::vector<DimSizes> next;
    for (const DimSizes& combo : combos) {
      for (int64_t size : sizes) {
        DimSizes c = combo;
        c[name] = size;
        next.push_back(std::move(c));
      }
    }
    combos = std::move(next);
  }
  return combos;
}

std::string DimSizesText(const DimSizes& dims) {
  std::string text;
  for (const auto& [name, size] : dims) {
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(size);
  }
  return text;
}

std::vector<NamedValue> FeedsOfSet(const GoldenSet& set) {
  std::vector<NamedValue> feeds;
  for (const GoldenValue& in : set.inputs) feeds.push_back({in.name, in.value});
  return feeds;
}

StatusOr<std::map<std::string, Value>> RunOutputsByName(const LoadedModel& model,
                                                        const std::vector<NamedValue>& feeds) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Value> outputs, model.Run(feeds));
  const std::vector<std::string> names = model.output_names();
  if (names.size() != outputs.size()) {
    return Internal("the runtime returned " + std::to_string(outputs.size()) + " outputs for " +
                    std::to_string(names.size()) + " declared");
  }
  std::map<std::string, Value> by_name;
  for (size_t i = 0; i < names.size(); ++i) by_name[names[i]] = std::move(outputs[i]);
  return by_name;
}

StatusOr<InputRanges> ParseInputRangeFlags(const std::vector<std::string>& flags) {
  InputRanges ranges;
  for (const std::string& flag : flags) {
    const size_t eq = flag.find('=');
    const size_t colon = eq == std::string::npos ? eq : flag.find(':', eq);
    std::optional<int64_t> lo, hi;
    if (eq != 0 && colon != std::string::npos) {
      lo = ParseWholeNumber(flag.substr(eq + 1, colon - eq - 1));
      hi = ParseWholeNumber(flag.substr(colon + 1));
    }
    if (!lo || !hi) {
      return InvalidArgument("--input-range '" + flag +
                             "': expected NAME=LO:HI with whole numbers, e.g. input_ids=0:30522");
    }
    if (*lo >= *hi) {
      return InvalidArgument("--input-range '" + flag +
                             "': LO must be below HI (generated values are in [LO, HI))");
    }
    const std::string name = flag.substr(0, eq);
    if (!ranges.emplace(name, std::make_pair(*lo, *hi)).second) {
      return InvalidArgument("--input-range " + name + " is given twice");
    }
  }
  return ranges;
}

StatusOr<DimSizes> ParseFixedDimFlags(const std::vector<std::string>& flags) {
  ONNXGATE_ASSIGN_OR_RETURN(auto parsed, ParseDimFlags(flags));
  DimSizes dims;
  for (const auto& [name, sizes] : parsed) {
    if (sizes.size() != 1) {
      return InvalidArgument("--dim " + name + " gives " + std::to_string(sizes.size()) +
                             " sizes; this command takes one size per dimension");
    }
    dims[name] = sizes.front();
  }
  return dims;
}

}  // namespace onnxgate
