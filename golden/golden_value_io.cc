// Writing and reading tensors, sequences and optionals as HDF5 datasets and groups.
#include "golden/golden_value_io.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "golden/hdf5_containment.h"
#include "golden/hdf5_filters.h"
#include "golden/hdf5_types.h"

namespace onnxgate {

namespace {

const char* KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kTensor: return "tensor";
    case Value::Kind::kSequence: return "sequence";
    case Value::Kind::kOptional: return "optional";
    case Value::Kind::kNone:
    case Value::Kind::kResident:  // never leaves a session
      break;
  }
  return "none";
}

Status WriteKindAndDtype(hid_t obj, Value::Kind kind, DataType dtype, const H5Where& where) {
  ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(obj, "kind", KindName(kind), where));
  return WriteStringAttribute(obj, "onnx_dtype", DataTypeName(dtype), where);
}

// One byte per element of a packed tensor: the value for INT4/INT2 (as int8 bits) and
// UINT4/UINT2, the 4-bit code for FLOAT4E2M1.
std::vector<uint8_t> Unpack(const Tensor& tensor) {
  const int64_t n = tensor.NumElements();
  std::vector<uint8_t> out(static_cast<size_t>(n));
  const bool is_int = IsSubByteInteger(tensor.dtype());
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] =
        is_int ? static_cast<uint8_t>(static_cast<int8_t>(tensor.SubByteInt(i)))
               : tensor.PackedCode(i);
  }
  return out;
}

// Packs one-byte-per-element `bytes` read from a dataset into `tensor`, refusing values the type
// cannot hold.
Status Pack(const std::vector<uint8_t>& bytes, Tensor* tensor, const H5Where& where) {
  const DataType dtype = tensor->dtype();
  for (size_t i = 0; i < bytes.size(); ++i) {
    const int64_t index = static_cast<int64_t>(i);
    if (IsSubByteInteger(dtype)) {
      const bool is_signed = SubByteIntMin(dtype) < 0;
      const int64_t value = is_signed ? static_cast<int8_t>(bytes[i]) : bytes[i];
      StatusOr<uint8_t> code = SubByteIntToCode(dtype, value);
      if (!code.ok()) {
        return DataLoss(where.Prefix() + DataTypeName(dtype) + " element " + std::to_string(i) +
                        " is " + std::to_string(value) + ", outside [" +
                        std::to_string(SubByteIntMin(dtype)) + ", " +
                        std::to_string(SubByteIntMax(dtype)) + "]");
      }
      tensor->SetPackedCode(index, *code);
    } else {
      if (bytes[i] > 0x0F) {
        return DataLoss(where.Prefix() + DataTypeName(dtype) + " element " + std::to_string(i) +
                        " is code " + std::to_string(bytes[i]) + ", expected a 4-bit code 0..15");
      }
      tensor->SetPackedCode(index, bytes[i]);
    }
  }
  return OkStatus();
}

StatusOr<H5Handle> WriteTensorDataset(hid_t parent, const std::string& link, const Tensor& tensor,
                                      const H5Where& where) {
  if (!tensor.defined()) return InvalidArgument(where.Prefix() + "the tensor has no data type");
  DataType dtype = tensor.dtype();
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle file_type, FileTypeFor(dtype, where));
  const std::vector<int64_t>& dims = tensor.shape().dims();
  std::vector<hsize_t> extent(dims.begin(), dims.end());
  hid_t space_id = dims.empty()
                       ? H5Screate(H5S_SCALAR)
                       : H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr);
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle space,
                            H5Take(space_id, H5Sclose, StatusCode::kInternal, where,
                                   "cannot create the dataspace " + tensor.shape().ToString()));
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle dcpl, UntimedCreationList(H5P_DATASET_CREATE, where));
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle dataset,
      H5Take(H5Dcreate2(parent, link.c_str(), file_type.get(), space.get(), H5P_DEFAULT, dcpl.get(),
                        H5P_DEFAULT),
             H5Dclose, StatusCode::kUnavailable, where, "cannot create the dataset"));
  int64_t n = tensor.NumElements();
  if (n > 0 && dtype == DataType::kString) {
    const std::string* strings = tensor.data<std::string>();
    std::vector<const char*> pointers(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      // HDF5 variable-length strings end at the first NUL; refusing keeps the round trip exact.
      if (strings[i].find('\0') != std::string::npos) {
        return InvalidArgument(where.Prefix() + "string element " + std::to_string(i) +
                               " holds a NUL byte, which HDF5 strings cannot store");
      }
      pointers[static_cast<size_t>(i)] = strings[i].c_str();
    }
    ONNXGATE_RETURN_IF_ERROR(H5Check(
        H5Dwrite(dataset.get(), file_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()),
        StatusCode::kUnavailable, where, "cannot write the data"));
  } else if (n > 0 && IsPackedSubByte(dtype)) {
    // Packed types are written unpacked, one element per byte, so that h5py and h5dump show values
    // (or FLOAT4E2M1 codes) rather than packed pairs.
    std::vector<uint8_t> unpacked = Unpack(tensor);
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle mem_type, MemoryTypeFor(dtype, where));
    ONNXGATE_RETURN_IF_ERROR(H5Check(
        H5Dwrite(dataset.get(), mem_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, unpacked.data()),
        StatusCode::kUnavailable, where, "cannot write the data"));
  } else if (n > 0) {
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle mem_type, MemoryTypeFor(dtype, where));
    ONNXGATE_RETURN_IF_ERROR(H5Check(
        H5Dwrite(dataset.get(), mem_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, tensor.raw_data()),
        StatusCode::kUnavailable, where, "cannot write the data"));
  }
  ONNXGATE_RETURN_IF_ERROR(WriteKindAndDtype(dataset.get(), Value::Kind::kTensor, dtype, where));
  // The shape rides along as an attribute so that tools which drop zero-size extents keep it.
  if (!dims.empty())
    ONNXGATE_RETURN_IF_ERROR(WriteInt64ArrayAttribute(dataset.get(), "shape", dims, where));
  return dataset;
}

StatusOr<H5Handle> WriteSequenceGroup(hid_t parent, const std::string& link, const Value& value,
                                      const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle group, CreateGroup(parent, link, where));
  ONNXGATE_RETURN_IF_ERROR(
      WriteKindAndDtype(group.get(), Value::Kind::kSequence, value.elem_type(), where));
  const std::vector<Tensor>& items = value.sequence();
  for (size_t i = 0; i < items.size(); ++i) {
    std::string name = std::to_string(i);
    if (items[i].dtype() != value.elem_type()) {
      return InvalidArgument(where.Child(name).Prefix() + "element of type " +
                             DataTypeName(items[i].dtype()) + " in a sequence of " +
                             DataTypeName(value.elem_type()));
    }
    ONNXGATE_RETURN_IF_ERROR(
        WriteTensorDataset(group.get(), name, items[i], where.Child(name)).status());
  }
  return group;
}

StatusOr<H5Handle> WriteOptionalGroup(hid_t parent, const std::string& link, const Value& value,
                                      const H5Where& where) {
  Value::Kind inner = value.optional_inner_kind();
  if (inner != Value::Kind::kTensor && inner != Value::Kind::kSequence) {
    return InvalidArgument(where.Prefix() + "an optional must hold a tensor or a sequence, not " +
                           KindName(inner));
  }
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle group, CreateGroup(parent, link, where));
  ONNXGATE_RETURN_IF_ERROR(
      WriteKindAndDtype(group.get(), Value::Kind::kOptional, value.elem_type(), where));
  ONNXGATE_RETURN_IF_ERROR(
      WriteInt64Attribute(group.get(), "has_value", value.has_value() ? 1 : 0, where));
  ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(group.get(), "inner_kind", KindName(inner), where));
  if (value.has_value()) {
    const Value& held = value.optional_value();
    H5Where child = where.Child("value");
    if (held.kind() != inner || held.elem_type() != value.elem_type()) {
      return InvalidArgument(child.Prefix() + "holds " + held.TypeString() +
                             " but the optional is " + value.TypeString());
    }
    ONNXGATE_RETURN_IF_ERROR(WriteValueObject(group.get(), "value", held, child).status());
  }
  return group;
}

StatusOr<DataType> ReadDtypeAttribute(hid_t obj, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string name, ReadStringAttribute(obj, "onnx_dtype", where));
  StatusOr<DataType> dtype = DataTypeFromName(name);
  if (name == "FLOAT6E2M3" || name == "FLOAT6E3M2") {
    // ONNX 1.23 types that this reader cannot represent yet: valid, but unsupported.
    return Unimplemented(where.Prefix() + "onnx_dtype '" + name +
                         "' is an ONNX type this golden reader does not support");
  }
  if (!dtype.ok() || name != DataTypeName(*dtype)) {
    return InvalidArgument(where.Prefix() + "unknown onnx_dtype '" + name +
                           "' (expected a TensorProto.DataType name such as FLOAT or INT64)");
  }
  return *dtype;
}

StatusOr<Shape> ReadDataspaceShape(hid_t dataset, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle space,
                            H5Take(H5Dget_space(dataset), H5Sclose, StatusCode::kDataLoss, where,
                                   "cannot read the dataspace"));
  H5S_class_t cls = H5Sget_simple_extent_type(space.get());
  if (cls == H5S_SCALAR) return Shape{};
  if (cls != H5S_SIMPLE) return DataLoss(where.Prefix() + "the dataspace is empty (H5S_NULL)");
  int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the dataspace rank");
  std::vector<hsize_t> extent(static_cast<size_t>(rank));
  if (H5Sget_simple_extent_dims(space.get(), extent.data(), nullptr) < 0) {
    return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the dataspace dims");
  }
  std::vector<int64_t> dims;
  for (hsize_t d : extent) {
    if (d > static_cast<hsize_t>(INT64_MAX))
      return DataLoss(where.Prefix() + "dataspace dim too large");
    dims.push_back(static_cast<int64_t>(d));
  }
  return Shape(std::move(dims));
}

// "536870912 bytes (512 MiB)".
std::string Bytes(int64_t n) {
  std::string s = std::to_string(n) + " bytes";
  const int64_t gib = int64_t{1} << 30, mib = int64_t{1} << 20;
  if (n >= gib && n % gib == 0) return s + " (" + std::to_string(n / gib) + " GiB)";
  if (n >= mib && n % mib == 0) return s + " (" + std::to_string(n / mib) + " MiB)";
  return s;
}

// a * b, or -1 when that exceeds `limit` (or overflows).
int64_t ProductWithin(int64_t a, int64_t b, int64_t limit) {
  if (a < 0 || b < 0) return -1;
  if (b != 0 && a > limit / b) return -1;
  return a * b;
}

// The size of one chunk of a chunked dataset in bytes of the file type, 0 when it is not chunked:
// libhdf5 allocates one such buffer (and inflates a compressed chunk into it) per chunk it reads.
// DataLoss past `limit`.
StatusOr<int64_t> ChunkBytes(hid_t dataset, size_t file_elem_size, int64_t limit,
                             const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle dcpl, H5Take(H5Dget_create_plist(dataset), H5Pclose, StatusCode::kDataLoss, where,
                            "cannot read the dataset's creation properties"));
  if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return int64_t{0};
  hsize_t dims[H5S_MAX_RANK];
  int rank = H5Pget_chunk(dcpl.get(), H5S_MAX_RANK, dims);
  if (rank < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the chunk dims");
  int64_t bytes = static_cast<int64_t>(file_elem_size);
  std::string shown;
  for (int i = 0; i < rank && i < H5S_MAX_RANK; ++i) {
    shown += (shown.empty() ? "" : ",") + std::to_string(dims[i]);
    int64_t dim = dims[i] > static_cast<hsize_t>(INT64_MAX) ? -1 : static_cast<int64_t>(dims[i]);
    bytes = bytes < 0 ? -1 : ProductWithin(bytes, dim, limit);
  }
  if (bytes < 0) {
    return DataLoss(where.Prefix() + "chunks of [" + shown + "] elements of " +
                    std::to_string(file_elem_size) + " bytes are larger than the limit of " +
                    Bytes(limit) + " per chunk");
  }
  return bytes;
}

// Checks what the dataset declares against the per-tensor limit, its chunks against the chunk
// limit and the golden's running total, then takes its share of `budget`; returns the chunk size
// (0: not chunked). `mem_elem_size` is what one element costs in memory while reading.
StatusOr<int64_t> ChargeDeclaredSize(hid_t dataset, DataType dtype, const Shape& shape,
                                     size_t mem_elem_size, size_t file_elem_size,
                                     const H5Where& where, GoldenReadBudget* budget) {
  const GoldenReadLimits& limits = budget->limits;
  const int64_t elem = static_cast<int64_t>(std::max(mem_elem_size, file_elem_size));
  if (!shape.Validate(limits.tensor_bytes / std::max<int64_t>(elem, 1)).ok()) {
    return DataLoss(where.Prefix() + "declares " + DataTypeName(dtype) + " " + shape.ToString() +
                    " (" + std::to_string(elem) + " bytes per element), more than the limit of " +
                    Bytes(limits.tensor_bytes) + " per tensor");
  }
  const int64_t bytes = shape.NumElements() * elem;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t chunk_bytes,
                            ChunkBytes(dataset, file_elem_size, limits.chunk_bytes, where));
  if (bytes > budget->bytes_left) {
    return DataLoss(where.Prefix() + "declares " + DataTypeName(dtype) + " " + shape.ToString() +
                    " (" + Bytes(bytes) + "), which takes the golden's tensors past the limit of " +
                    Bytes(limits.total_bytes) + " in all");
  }
  budget->bytes_left -= bytes;
  return chunk_bytes;
}

StatusOr<Tensor> ReadTensorDataset(hid_t dataset, const H5Where& where, GoldenReadBudget* budget) {
  if (H5Iget_type(dataset) != H5I_DATASET) {
    return DataLoss(where.Prefix() + "kind is tensor but the object is not a dataset");
  }
  // Before the dataspace: for a virtual dataset, H5Dget_space may open the source files.
  ONNXGATE_RETURN_IF_ERROR(CheckSelfContainedDataset(dataset, where));
  ONNXGATE_ASSIGN_OR_RETURN(DataType dtype, ReadDtypeAttribute(dataset, where));
  if (dtype == DataType::kUndefined) {
    return DataLoss(where.Prefix() + "a tensor needs a defined onnx_dtype, got UNDEFINED");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, ReadDataspaceShape(dataset, where));
  if (HasAttribute(dataset, "shape")) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> declared,
                              ReadInt64ArrayAttribute(dataset, "shape", where));
    if (declared != shape.dims()) {
      return DataLoss(where.Prefix() + "shape attribute " + Shape(declared).ToString() +
                      " does not match the dataspace " + shape.ToString());
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle file_type,
                            H5Take(H5Dget_type(dataset), H5Tclose, StatusCode::kDataLoss, where,
                                   "cannot read the dataset type"));
  const size_t file_elem_size = H5Tget_size(file_type.get());
  if (file_elem_size == 0)
    return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the element size");
  // In memory while reading: a string object and a pointer (or the fixed length) per STRING
  // element; a one-byte buffer beside the tensor for BOOL and the packed types.
  const size_t mem_elem_size = dtype == DataType::kString ? sizeof(std::string) + sizeof(char*)
                               : dtype == DataType::kBool || IsPackedSubByte(dtype)
                                   ? 2
                                   : DataTypeSize(dtype);
  ONNXGATE_ASSIGN_OR_RETURN(
      int64_t chunk_bytes,
      ChargeDeclaredSize(dataset, dtype, shape, mem_elem_size, file_elem_size, where, budget));
  // A deflated chunk must not inflate past its size (libhdf5 would inflate it without bound).
  if (chunk_bytes > 0) ONNXGATE_RETURN_IF_ERROR(CheckDatasetFilters(dataset, chunk_bytes, where));
  Tensor tensor(dtype, shape);
  int64_t n = tensor.NumElements();
  auto read = [&](hid_t mem_type, void* buffer) {
    return H5Dread(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
  };
  if (dtype == DataType::kString) {
    if (!IsStringType(file_type.get())) {
      return DataLoss(where.Prefix() + "onnx_dtype STRING but HDF5 type is " +
                      DescribeHdf5Type(file_type.get()));
    }
    std::vector<std::string> strings;
    ONNXGATE_RETURN_IF_ERROR(ReadStrings(file_type.get(), static_cast<size_t>(n),
                                         static_cast<uint64_t>(budget->limits.tensor_bytes), where,
                                         read, &strings));
    std::string* out = tensor.mutable_data<std::string>();
    for (int64_t i = 0; i < n; ++i) out[i] = std::move(strings[static_cast<size_t>(i)]);
    return tensor;
  }
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle mem_type, ReadTypeFor(file_type.get(), dtype, where));
  if (n == 0) return tensor;
  if (dtype == DataType::kBool) {
    std::vector<uint8_t> bytes(static_cast<size_t>(n));
    ONNXGATE_RETURN_IF_ERROR(H5Check(read(mem_type.get(), bytes.data()), StatusCode::kDataLoss,
                                     where, "cannot read the data"));
    bool* out = tensor.mutable_data<bool>();
    for (int64_t i = 0; i < n; ++i) {
      if (bytes[static_cast<size_t>(i)] > 1) {
        return DataLoss(where.Prefix() + "BOOL element " + std::to_string(i) + " is " +
                        std::to_string(bytes[static_cast<size_t>(i)]) + ", expected 0 or 1");
      }
      out[i] = bytes[static_cast<size_t>(i)] == 1;
    }
    return tensor;
  }
  if (IsPackedSubByte(dtype)) {
    std::vector<uint8_t> bytes(static_cast<size_t>(n));
    ONNXGATE_RETURN_IF_ERROR(H5Check(read(mem_type.get(), bytes.data()), StatusCode::kDataLoss,
                                     where, "cannot read the data"));
    ONNXGATE_RETURN_IF_ERROR(Pack(bytes, &tensor, where));
    return tensor;
  }
  ONNXGATE_RETURN_IF_ERROR(H5Check(read(mem_type.get(), tensor.mutable_raw_data()),
                                   StatusCode::kDataLoss, where, "cannot read the data"));
  return tensor;
}

StatusOr<std::string> ReadKind(hid_t obj, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string kind, ReadStringAttribute(obj, "kind", where));
  if (kind != "tensor" && kind != "sequence" && kind != "optional") {
    return InvalidArgument(where.Prefix() + "unknown kind '" + kind +
                           "' (expected tensor, sequence or optional)");
  }
  return kind;
}

StatusOr<Value> ReadSequenceGroup(hid_t group, const H5Where& where, GoldenReadBudget* budget) {
  if (H5Iget_type(group) != H5I_GROUP) {
    return DataLoss(where.Prefix() + "kind is sequence but the object is not a group");
  }
  ONNXGATE_ASSIGN_OR_RETURN(DataType dtype, ReadDtypeAttribute(group, where));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> names, ChildNames(group, where));
  std::vector<Tensor> items(names.size());
  for (const std::string& name : names) {
    std::optional<size_t> index = ParseIndexLink(name, names.size());
    if (!index) {
      return DataLoss(where.Prefix() + "unexpected child '" + name + "' (a sequence of " +
                      std::to_string(names.size()) + " holds children 0.." +
                      std::to_string(names.size() - 1) + ")");
    }
    H5Where child_where = where.Child(name);
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle child, OpenObject(group, name, where));
    ONNXGATE_ASSIGN_OR_RETURN(std::string kind, ReadKind(child.get(), child_where));
    if (kind != "tensor")
      return DataLoss(child_where.Prefix() + "a sequence element must be a tensor");
    ONNXGATE_ASSIGN_OR_RETURN(items[*index], ReadTensorDataset(child.get(), child_where, budget));
    if (items[*index].dtype() != dtype) {
      return DataLoss(child_where.Prefix() + "element onnx_dtype " +
                      DataTypeName(items[*index].dtype()) + " differs from the sequence's " +
                      DataTypeName(dtype));
    }
  }
  return Value::FromSequence(dtype, std::move(items));
}

StatusOr<Value> ReadOptionalGroup(hid_t group, const H5Where& where, GoldenReadBudget* budget) {
  if (H5Iget_type(group) != H5I_GROUP) {
    return DataLoss(where.Prefix() + "kind is optional but the object is not a group");
  }
  ONNXGATE_ASSIGN_OR_RETURN(DataType dtype, ReadDtypeAttribute(group, where));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t has_value, ReadInt64Attribute(group, "has_value", where));
  ONNXGATE_ASSIGN_OR_RETURN(std::string inner, ReadStringAttribute(group, "inner_kind", where));
  if (has_value != 0 && has_value != 1) {
    return DataLoss(where.Prefix() + "has_value is " + std::to_string(has_value) +
                    ", expected 0 or 1");
  }
  if (inner != "tensor" && inner != "sequence") {
    return InvalidArgument(where.Prefix() + "unknown inner_kind '" + inner +
                           "' (expected tensor or sequence)");
  }
  Value::Kind inner_kind = inner == "tensor" ? Value::Kind::kTensor : Value::Kind::kSequence;
  htri_t exists = H5Lexists(group, "value", H5P_DEFAULT);
  if (exists < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot look up 'value'");
  if (has_value == 0) {
    if (exists > 0) return DataLoss(where.Prefix() + "has_value is 0 but a child 'value' exists");
    return Value::OptionalNone(inner_kind, dtype);
  }
  H5Where child_where = where.Child("value");
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle child, OpenObject(group, "value", where));
  ONNXGATE_ASSIGN_OR_RETURN(Value held, ReadValueObject(child.get(), child_where, budget));
  if (held.kind() != inner_kind || held.elem_type() != dtype) {
    return DataLoss(child_where.Prefix() + "holds " + held.TypeString() +
                    " but the optional says " + inner + " of " + DataTypeName(dtype));
  }
  return Value::OptionalOf(std::move(held));
}

}  // namespace

std::optional<size_t> ParseIndexLink(const std::string& name, size_t count) {
  if (name.empty() || name.size() > 18 || (name.size() > 1 && name[0] == '0')) return std::nullopt;
  size_t value = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  if (value >= count) return std::nullopt;
  return value;
}

StatusOr<H5Handle> WriteValueObject(hid_t parent, const std::string& link_name, const Value& value,
                                    const H5Where& where) {
  switch (value.kind()) {
    case Value::Kind::kTensor: return WriteTensorDataset(parent, link_name, value.tensor(), where);
    case Value::Kind::kSequence: return WriteSequenceGroup(parent, link_name, value, where);
    case Value::Kind::kOptional: return WriteOptionalGroup(parent, link_name, value, where);
    case Value::Kind::kNone:
    case Value::Kind::kResident:  // never leaves a session
      break;
  }
  return InvalidArgument(where.Prefix() +
                         "the value is empty (neither tensor, sequence nor optional)");
}

StatusOr<Value> ReadValueObject(hid_t obj, const H5Where& where, GoldenReadBudget* budget) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string kind, ReadKind(obj, where));
  if (kind == "sequence") return ReadSequenceGroup(obj, where, budget);
  if (kind == "optional") return ReadOptionalGroup(obj, where, budget);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor tensor, ReadTensorDataset(obj, where, budget));
  return Value::FromTensor(std::move(tensor));
}

}  // namespace onnxgate
