// Loading an ONNX backend test case folder: the model's declared inputs/outputs, op types, opset
// imports and external data, and each test_data_set_<i> read as the kinds the model declares, its
// input_<k>.pb bound to the k-th graph input that has no initializer. Every file is opened beneath
// the case folder's descriptor (runtime/base/contained_file.h); external data is checked by the
// runtime's own rules (runtime/proto/external_data.h).
#include "golden/onnx_test_case.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "runtime/model/model_file.h"
#include "runtime/onnx/domain.h"
#include "runtime/proto/external_data.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

using EntryType = ContainedDir::EntryType;

// "<prefix><k><suffix>" with k a canonical decimal: returns k, else -1.
int64_t NumberedName(const std::string& name, const std::string& prefix,
                     const std::string& suffix) {
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return -1;
  }
  std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos ||
      (digits.size() > 1 && digits[0] == '0')) {
    return -1;
  }
  return std::stoll(digits);
}

StatusOr<DataType> ElemType(int32_t elem_type, const std::string& where) {
  if (elem_type == 0) return DataType::kUndefined;
  if (!IsValidDataType(elem_type)) {
    return Unimplemented(where + ": element type " + std::to_string(elem_type) +
                         " is not supported");
  }
  return static_cast<DataType>(elem_type);
}

// The ONNX spelling of a type, for messages: "map(int64,seq(tensor(float)))".
std::string OnnxTypeString(const onnx::TypeProto& type) {
  auto elem = [](int32_t elem_type) {
    if (!IsValidDataType(elem_type)) return "elem_type " + std::to_string(elem_type);
    return std::string(DataTypeShortName(static_cast<DataType>(elem_type)));
  };
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return "tensor(" + elem(type.tensor_type().elem_type()) + ")";
    case onnx::TypeProto::kSequenceType:
      return "seq(" + OnnxTypeString(type.sequence_type().elem_type()) + ")";
    case onnx::TypeProto::kOptionalType:
      return "optional(" + OnnxTypeString(type.optional_type().elem_type()) + ")";
    case onnx::TypeProto::kMapType:
      return "map(" + elem(type.map_type().key_type()) + "," +
             OnnxTypeString(type.map_type().value_type()) + ")";
    case onnx::TypeProto::kSparseTensorType:
      return "sparse_tensor(" + elem(type.sparse_tensor_type().elem_type()) + ")";
    case onnx::TypeProto::kOpaqueType:
      return "opaque(" + type.opaque_type().domain() + "," + type.opaque_type().name() + ")";
    default: return "untyped";
  }
}

StatusOr<DeclaredValue> Declare(const onnx::ValueInfoProto& info, int64_t graph_index,
                                const std::string& model_path) {
  DeclaredValue d;
  d.name = info.name();
  d.graph_index = graph_index;
  std::string where = model_path + ": graph value '" + info.name() + "'";
  const onnx::TypeProto& type = info.type();
  if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) return d;  // untyped: read as a tensor
  if (type.has_tensor_type()) {
    d.kind = Value::Kind::kTensor;
    ONNXGATE_ASSIGN_OR_RETURN(d.elem_type, ElemType(type.tensor_type().elem_type(), where));
    return d;
  }
  if (type.has_sequence_type() && type.sequence_type().elem_type().has_tensor_type()) {
    d.kind = Value::Kind::kSequence;
    ONNXGATE_ASSIGN_OR_RETURN(
        d.elem_type, ElemType(type.sequence_type().elem_type().tensor_type().elem_type(), where));
    return d;
  }
  if (type.has_optional_type()) {
    const onnx::TypeProto& inner = type.optional_type().elem_type();
    d.kind = Value::Kind::kOptional;
    if (inner.has_tensor_type()) {
      d.optional_inner_kind = Value::Kind::kTensor;
      ONNXGATE_ASSIGN_OR_RETURN(d.elem_type, ElemType(inner.tensor_type().elem_type(), where));
      return d;
    }
    if (inner.has_sequence_type() && inner.sequence_type().elem_type().has_tensor_type()) {
      d.optional_inner_kind = Value::Kind::kSequence;
      ONNXGATE_ASSIGN_OR_RETURN(
          d.elem_type,
          ElemType(inner.sequence_type().elem_type().tensor_type().elem_type(), where));
      return d;
    }
  }
  // Maps (ai.onnx.ml's ZipMap, DictVectorizer, CastMap) and the rest have no onnxgate Value kind,
  // so no golden can hold them; no ONNX 1.12 or 1.23.2 node test declares one.
  return Unimplemented(where + " is " + OnnxTypeString(type) +
                       ": a golden holds only tensors, sequences of tensors and optionals of "
                       "either (runtime/base/value.h has no map, sparse or opaque kind)");
}

using ExternalTensors = std::vector<const onnx::TensorProto*>;

void CollectOpTypes(const onnx::GraphProto& g, std::vector<std::string>* op_types,
                    std::set<std::string>* seen_ops) {
  // This graph's ops before those of its subgraphs, so that a single-node test lists its op first.
  for (const auto& node : g.node()) {
    if (seen_ops->insert(node.op_type()).second) op_types->push_back(node.op_type());
  }
  for (const auto& node : g.node()) {
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) CollectOpTypes(attr.g(), op_types, seen_ops);
      for (const auto& sub : attr.graphs()) CollectOpTypes(sub, op_types, seen_ops);
    }
  }
}

// Checks every external tensor by the runtime's rules (inside the folder, no link or hard link,
// within the file, the size its dims declare), then reads each file they name once.
StatusOr<std::vector<OnnxTestCase::ExternalFile>> ReadExternalFiles(const ContainedDir& dir,
                                                                    const ExternalTensors& tensors,
                                                                    const std::string& model_path) {
  std::map<std::string, std::string> locations;  // normalized -> as the model wrote it
  for (const onnx::TensorProto* t : tensors) {
    Status st = CheckExternalData(*t, dir);
    if (!st.ok()) return st.WithContext(model_path);
    for (const auto& entry : t->external_data()) {
      if (entry.key() != "location") continue;
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> parts, SplitContainedPath(entry.value()));
      std::string normalized;
      for (const std::string& part : parts) normalized += (normalized.empty() ? "" : "/") + part;
      locations.emplace(normalized, entry.value());
    }
  }
  std::vector<OnnxTestCase::ExternalFile> files;
  for (const auto& [normalized, written] : locations) {
    ONNXGATE_ASSIGN_OR_RETURN(ContainedFile file, dir.OpenFile(written, kMaxTestCaseFileBytes,
                                                               "external data '" + written + "'"));
    ONNXGATE_ASSIGN_OR_RETURN(std::string bytes, file.ReadAll(kMaxTestCaseFileBytes));
    files.push_back({normalized, std::move(bytes)});
  }
  return files;
}

const char* KindHint(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kSequence: return "sequence";
    case Value::Kind::kOptional: return "optional";
    default: return "tensor";
  }
}

// ONNX's generator wrote bfloat16 data as UINT16 tensors (numpy has no bfloat16); the model's
// declaration says what the bits are.
Tensor AsDeclared(const Tensor& t, DataType declared) {
  if (declared != DataType::kBFloat16 || t.dtype() != DataType::kUint16) return t;
  Tensor out(DataType::kBFloat16, t.shape());
  if (t.ByteSize() > 0) std::memcpy(out.mutable_raw_data(), t.raw_data(), t.ByteSize());
  return out;
}

Value SequenceAsDeclared(const Value& v, DataType declared) {
  if (declared != DataType::kBFloat16 || v.elem_type() != DataType::kUint16) return v;
  std::vector<Tensor> items;
  for (const Tensor& t : v.sequence()) items.push_back(AsDeclared(t, declared));
  return Value::FromSequence(declared, std::move(items));
}

// Test data leaves out what the model's declaration already says: an empty optional has no
// element type (and no inner kind), an empty sequence may have none, bfloat16 comes as uint16.
StatusOr<Value> CompleteFromDeclaration(Value v, const DeclaredValue& d, const std::string& path) {
  if (v.kind() != d.kind) {
    return InvalidArgument(path + ": holds " + v.TypeString() + " but the model declares '" +
                           d.name + "' as a " + KindHint(d.kind));
  }
  if (v.is_tensor()) return Value::FromTensor(AsDeclared(v.tensor(), d.elem_type));
  if (v.is_sequence() && !v.sequence().empty()) return SequenceAsDeclared(v, d.elem_type);
  if (v.is_optional() && v.has_value()) {
    const Value& held = v.optional_value();
    if (held.is_tensor())
      return Value::OptionalOf(Value::FromTensor(AsDeclared(held.tensor(), d.elem_type)));
    return Value::OptionalOf(SequenceAsDeclared(held, d.elem_type));
  }
  if (v.is_optional() && !v.has_value()) {
    DataType dtype = v.elem_type() == DataType::kUndefined ? d.elem_type : v.elem_type();
    Value::Kind inner = v.optional_inner_kind() == Value::Kind::kNone ? d.optional_inner_kind
                                                                      : v.optional_inner_kind();
    return Value::OptionalNone(inner, dtype);
  }
  if (v.is_sequence() && v.sequence().empty() && v.elem_type() == DataType::kUndefined) {
    return Value::FromSequence(d.elem_type, {});
  }
  return v;
}

// The .pb files of one data set; each is opened beneath the set's folder (a link, hard link or
// FIFO is refused naming it) and its external data, if any, resolves there too.
StatusOr<std::vector<GoldenValue>> ReadValues(const ContainedDir& set_dir,
                                              const std::string& prefix,
                                              const std::vector<DeclaredValue>& declared,
                                              const std::vector<ContainedDir::Entry>& entries) {
  std::map<int64_t, std::string> files;
  for (const ContainedDir::Entry& e : entries) {
    int64_t k = NumberedName(e.name, prefix, ".pb");
    if (k >= 0 && e.type != EntryType::kDirectory) files[k] = e.name;
  }
  std::vector<GoldenValue> values;
  for (const auto& [k, file] : files) {
    std::string path = set_dir.path() + "/" + file;
    if (k != static_cast<int64_t>(values.size())) {
      return InvalidArgument(set_dir.path() + ": " + prefix + std::to_string(values.size()) +
                             ".pb is missing but " + file + " exists");
    }
    if (k >= static_cast<int64_t>(declared.size())) {
      return InvalidArgument(path + ": the model has only " + std::to_string(declared.size()) +
                             " " +
                             (prefix == "input_" ? "inputs without an initializer" : "outputs"));
    }
    const DeclaredValue& d = declared[static_cast<size_t>(k)];
    ONNXGATE_ASSIGN_OR_RETURN(ContainedFile pb, set_dir.OpenFile(file, kMaxTestCaseFileBytes));
    ONNXGATE_ASSIGN_OR_RETURN(std::string bytes, pb.ReadAll(kMaxTestCaseFileBytes));
    ONNXGATE_ASSIGN_OR_RETURN(Value raw, ParseValueProto(bytes, KindHint(d.kind), path, &set_dir));
    GoldenValue gv;
    gv.name = d.name;
    gv.index = d.graph_index;
    ONNXGATE_ASSIGN_OR_RETURN(gv.value, CompleteFromDeclaration(std::move(raw), d, path));
    values.push_back(std::move(gv));
  }
  return values;
}

}  // namespace

StatusOr<OnnxTestCase> LoadOnnxTestCase(const std::string& dir_name) {
  // The case folder itself must be a real folder: a link could make a case of any folder.
  ONNXGATE_ASSIGN_OR_RETURN(ContainedDir dir,
                            ContainedDir::Open(dir_name, ContainedDir::RootLink::kRefuse));
  OnnxTestCase c;
  const std::string trimmed = dir_name.substr(0, dir_name.find_last_not_of('/') + 1);
  c.name = trimmed.substr(trimmed.find_last_of('/') + 1);
  c.dir = dir_name;
  const std::string model_path = dir.path() + "/model.onnx";
  StatusOr<ContainedFile> model_file = dir.OpenFile("model.onnx", kMaxTestCaseFileBytes);
  if (model_file.status().code() == StatusCode::kNotFound) {
    return NotFound(dir.path() + ": no model.onnx");
  }
  if (!model_file.ok()) return model_file.status();
  ONNXGATE_ASSIGN_OR_RETURN(c.model_bytes, model_file->ReadAll(kMaxTestCaseFileBytes));
  onnx::ModelProto model;
  if (!model.ParseFromString(c.model_bytes)) {
    return DataLoss(model_path + ": not a valid ONNX model (protobuf parse failed)");
  }
  // Test data feeds only the graph inputs without an initializer, in order (ONNX's runner binds
  // input_<k>.pb the same way); an input with an initializer keeps it.
  std::set<std::string> initialized;
  for (const auto& t : model.graph().initializer()) initialized.insert(t.name());
  for (const auto& s : model.graph().sparse_initializer()) initialized.insert(s.values().name());
  int64_t index = 0;
  for (const auto& info : model.graph().input()) {
    if (initialized.count(info.name()) > 0) {
      c.initializer_inputs.push_back(info.name());
      ++index;
      continue;
    }
    ONNXGATE_ASSIGN_OR_RETURN(DeclaredValue d, Declare(info, index++, model_path));
    c.inputs.push_back(std::move(d));
  }
  index = 0;
  for (const auto& info : model.graph().output()) {
    ONNXGATE_ASSIGN_OR_RETURN(DeclaredValue d, Declare(info, index++, model_path));
    c.outputs.push_back(std::move(d));
  }
  for (const auto& import : model.opset_import()) {
    c.opset_imports.emplace_back(NormalizeDomain(import.domain()), import.version());
  }
  std::set<std::string> seen_ops;
  CollectOpTypes(model.graph(), &c.op_types, &seen_ops);
  // The same list the case runner hashes (runtime/model/model_file.h), so model_files_sha256
  // agrees.
  ONNXGATE_ASSIGN_OR_RETURN(c.external_data,
                            ReadExternalFiles(dir, ExternalDataTensors(model), model_path));

  ONNXGATE_ASSIGN_OR_RETURN(std::vector<ContainedDir::Entry> entries, dir.List());
  std::map<int64_t, std::string> set_dirs;
  for (const ContainedDir::Entry& e : entries) {
    int64_t i = NumberedName(e.name, "test_data_set_", "");
    if (i < 0) continue;
    if (e.type == EntryType::kSymlink) {
      return InvalidArgument(dir.path() + "/" + e.name +
                             ": is a symbolic link; a data-set folder must be a real folder, as a "
                             "link may lead anywhere");
    }
    if (e.type == EntryType::kDirectory) set_dirs[i] = e.name;
  }
  if (set_dirs.empty()) return NotFound(dir.path() + ": no test_data_set_<i> folders");
  for (const auto& [i, name] : set_dirs) {
    ONNXGATE_ASSIGN_OR_RETURN(ContainedDir set_dir, dir.OpenDir(name));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<ContainedDir::Entry> files, set_dir.List());
    GoldenSet set;
    ONNXGATE_ASSIGN_OR_RETURN(set.inputs, ReadValues(set_dir, "input_", c.inputs, files));
    ONNXGATE_ASSIGN_OR_RETURN(set.outputs, ReadValues(set_dir, "output_", c.outputs, files));
    if (set.outputs.empty()) return InvalidArgument(set_dir.path() + ": no output_<k>.pb files");
    c.sets.push_back(std::move(set));
  }
  return c;
}

}  // namespace onnxgate
