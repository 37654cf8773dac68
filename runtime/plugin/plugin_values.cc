// Values across the plugin ABI, checked on the way in.
#include "runtime/plugin/plugin_values.h"

#include <cstring>
#include <limits>

namespace onnxgate {

namespace {

// Far beyond any real tensor; it keeps a wild rank from reading far past the plugin's dims,
// and byte counts (up to 16 per element) from overflowing.
constexpr size_t kMaxRank = 4096;
constexpr int64_t kMaxElements = std::numeric_limits<int64_t>::max() / 16;
// A sequence's items, and the bytes of a string tensor's strings together: the sizes are the
// plugin's word, checked before anything is copied (a worker's memory limit is 4 GiB).
constexpr size_t kMaxSequenceItems = size_t{1} << 20;
constexpr size_t kMaxStringBytes = size_t{1} << 30;

Status Bad(const std::string& what, const std::string& fault) {
  return InvalidArgument(what + ": " + fault);
}

StatusOr<Tensor> TensorFromAbi(const OnnxgateValue& v, const std::string& what) {
  if (!IsValidDataType(v.elem_type) || v.elem_type == 0) {
    return Bad(what, "element type " + std::to_string(v.elem_type) + " is not an ONNX type");
  }
  if (v.rank > kMaxRank) {
    return Bad(what,
               "rank " + std::to_string(v.rank) + " (at most " + std::to_string(kMaxRank) + ")");
  }
  if (v.rank > 0 && v.dims == nullptr) {
    return Bad(what, "rank " + std::to_string(v.rank) + " but no dims");
  }
  std::vector<int64_t> dims(v.dims, v.dims + v.rank);
  Shape shape(std::move(dims));
  if (Status st = shape.Validate(kMaxElements); !st.ok())
    return Bad(what, "shape: " + st.message());
  const auto dtype = static_cast<DataType>(v.elem_type);
  const int64_t n = shape.NumElements();
  const bool strings = dtype == DataType::kString;
  // Checked before anything is allocated: the plugin's data is already in memory, so a size
  // that matches it is one this process can hold.
  const size_t expected =
      strings ? static_cast<size_t>(n) * sizeof(OnnxgateString) : DataTypeStorageBytes(dtype, n);
  if (v.data_bytes != expected) {
    return Bad(what, "data_bytes is " + std::to_string(v.data_bytes) + " for " +
                         DataTypeShortName(dtype) + shape.ToString() + "; expected " +
                         std::to_string(expected));
  }
  if (expected > 0 && v.data == nullptr) {
    return Bad(what, "null data for " + std::string(DataTypeShortName(dtype)) + shape.ToString());
  }
  Tensor t(dtype, shape);
  if (strings) {
    const auto* views = static_cast<const OnnxgateString*>(v.data);
    size_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (views[i].data == nullptr && views[i].size > 0) {
        return Bad(what, "string " + std::to_string(i) + " has a size but no data");
      }
      if (views[i].size > kMaxStringBytes - total) {
        return Bad(what, "string " + std::to_string(i) + " of " + std::to_string(views[i].size) +
                             " bytes takes the strings past " + std::to_string(kMaxStringBytes) +
                             " bytes");
      }
      total += views[i].size;
    }
    std::string* out = t.mutable_data<std::string>();
    for (int64_t i = 0; i < n; ++i) {
      out[i].assign(views[i].data == nullptr ? "" : views[i].data, views[i].size);
    }
  } else if (expected > 0) {
    std::memcpy(t.mutable_raw_data(), v.data, expected);
  }
  return t;
}

StatusOr<Value> SequenceFromAbi(const OnnxgateValue& v, const std::string& what) {
  if (!IsValidDataType(v.elem_type) || v.elem_type == 0) {
    return Bad(what,
               "sequence element type " + std::to_string(v.elem_type) + " is not an ONNX type");
  }
  if (v.item_count > kMaxSequenceItems) {
    return Bad(what, "a sequence of " + std::to_string(v.item_count) + " items (at most " +
                         std::to_string(kMaxSequenceItems) + ")");
  }
  if (v.item_count > 0 && v.items == nullptr) return Bad(what, "items missing");
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < v.item_count; ++i) {
    const std::string item_what = what + " item " + std::to_string(i);
    if (v.items[i].kind != ONNXGATE_VALUE_TENSOR) return Bad(item_what, "not a tensor");
    if (v.items[i].elem_type != v.elem_type) {
      return Bad(item_what, "element type " + std::to_string(v.items[i].elem_type) +
                                " in a sequence of " + std::to_string(v.elem_type));
    }
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, TensorFromAbi(v.items[i], item_what));
    tensors.push_back(std::move(t));
  }
  return Value::FromSequence(static_cast<DataType>(v.elem_type), std::move(tensors));
}

}  // namespace

AbiValue::AbiValue(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kTensor: ShowTensor(value.tensor(), &abi_); return;
    case Value::Kind::kSequence:
      abi_.kind = ONNXGATE_VALUE_SEQUENCE;
      abi_.elem_type = static_cast<int32_t>(value.elem_type());
      items_.resize(value.sequence().size());
      for (size_t i = 0; i < items_.size(); ++i) ShowTensor(value.sequence()[i], &items_[i]);
      abi_.item_count = items_.size();
      abi_.items = items_.data();
      return;
    case Value::Kind::kOptional:
      abi_.kind = ONNXGATE_VALUE_OPTIONAL;
      abi_.elem_type = static_cast<int32_t>(value.elem_type());
      abi_.optional_inner_kind = value.optional_inner_kind() == Value::Kind::kSequence
                                     ? ONNXGATE_VALUE_SEQUENCE
                                     : ONNXGATE_VALUE_TENSOR;
      if (value.has_value()) {
        inner_.push_back(std::make_unique<AbiValue>(value.optional_value()));
        abi_.item_count = 1;
        abi_.items = &inner_.back()->get();
      }
      return;
    case Value::Kind::kNone:
    // A session hands out host tensors only (resident_tensor.h).
    case Value::Kind::kResident: return;
  }
}

void AbiValue::ShowTensor(const Tensor& tensor, OnnxgateValue* out) {
  out->kind = ONNXGATE_VALUE_TENSOR;
  out->elem_type = static_cast<int32_t>(tensor.dtype());
  out->rank = tensor.shape().rank();
  out->dims = tensor.shape().dims().data();
  if (tensor.dtype() == DataType::kString) {
    const std::string* s = tensor.data<std::string>();
    std::vector<OnnxgateString>& views = strings_.emplace_back();
    for (int64_t i = 0; i < tensor.NumElements(); ++i) views.push_back({s[i].data(), s[i].size()});
    out->data = views.data();
    out->data_bytes = views.size() * sizeof(OnnxgateString);
  } else {
    out->data = tensor.raw_data();
    out->data_bytes = tensor.ByteSize();
  }
}

StatusOr<Value> ValueFromAbi(const OnnxgateValue& value, const std::string& what) {
  switch (value.kind) {
    case ONNXGATE_VALUE_TENSOR: {
      ONNXGATE_ASSIGN_OR_RETURN(Tensor t, TensorFromAbi(value, what));
      return Value::FromTensor(std::move(t));
    }
    case ONNXGATE_VALUE_SEQUENCE: return SequenceFromAbi(value, what);
    case ONNXGATE_VALUE_OPTIONAL: {
      if (value.item_count > 1) {
        return Bad(what, "an optional with " + std::to_string(value.item_count) + " items");
      }
      if (value.item_count == 1) {
        if (value.items == nullptr) return Bad(what, "items missing");
        const OnnxgateValue& inner = value.items[0];
        if (inner.kind != ONNXGATE_VALUE_TENSOR && inner.kind != ONNXGATE_VALUE_SEQUENCE) {
          return Bad(what, "an optional may hold a tensor or a sequence, not kind " +
                               std::to_string(inner.kind));
        }
        ONNXGATE_ASSIGN_OR_RETURN(Value held, ValueFromAbi(inner, what + " (held value)"));
        return Value::OptionalOf(std::move(held));
      }
      if (!IsValidDataType(value.elem_type) || value.elem_type == 0) {
        return Bad(what, "empty optional of element type " + std::to_string(value.elem_type));
      }
      const Value::Kind inner = value.optional_inner_kind == ONNXGATE_VALUE_SEQUENCE
                                    ? Value::Kind::kSequence
                                    : Value::Kind::kTensor;
      return Value::OptionalNone(inner, static_cast<DataType>(value.elem_type));
    }
    default:
      return Bad(what, "value kind " + std::to_string(value.kind) + " is not tensor (1), " +
                           "sequence (2) or optional (3)");
  }
}

}  // namespace onnxgate
