// Value constructors and type strings.
#include "runtime/base/value.h"

namespace onnxgate {

Value Value::FromTensor(Tensor t) {
  Value v;
  v.kind_ = Kind::kTensor;
  v.elem_type_ = t.dtype();
  v.tensor_ = std::move(t);
  return v;
}

Value Value::FromSequence(DataType elem_type, std::vector<Tensor> tensors) {
  Value v;
  v.kind_ = Kind::kSequence;
  v.elem_type_ = elem_type;
  v.sequence_ = std::move(tensors);
  return v;
}

Value Value::OptionalOf(Value inner) {
  Value v;
  v.kind_ = Kind::kOptional;
  v.elem_type_ = inner.elem_type_;
  v.optional_inner_kind_ = inner.kind_;
  v.optional_ = std::make_shared<const Value>(std::move(inner));
  return v;
}

Value Value::OptionalNone(Kind inner_kind, DataType elem_type) {
  Value v;
  v.kind_ = Kind::kOptional;
  v.elem_type_ = elem_type;
  v.optional_inner_kind_ = inner_kind;
  return v;
}

Value Value::FromResident(std::shared_ptr<const ResidentTensor> resident) {
  Value v;
  v.kind_ = Kind::kResident;
  v.elem_type_ = resident->dtype();
  v.resident_ = std::move(resident);
  return v;
}

std::string Value::TypeString() const {
  std::string t = std::string("tensor(") + DataTypeShortName(elem_type_) + ")";
  switch (kind_) {
    case Kind::kNone: return "none";
    case Kind::kTensor: return t + tensor_.shape().ToString();
    case Kind::kResident:
      return t + resident_->shape().ToString() + " resident on " + resident_->provider();
    case Kind::kSequence: return "seq(" + t + ")[" + std::to_string(sequence_.size()) + " items]";
    case Kind::kOptional: {
      std::string inner = optional_inner_kind_ == Kind::kSequence ? "seq(" + t + ")" : t;
      return "optional(" + inner + ")" + (has_value() ? "" : ": none");
    }
  }
  return "?";
}

}  // namespace onnxgate
