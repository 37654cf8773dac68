// Value: what flows along a graph edge: a tensor, a sequence of tensors, or an optional of either;
// inside a session also a tensor resident in a provider's memory (resident_tensor.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/resident_tensor.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

class Value {
 public:
  enum class Kind { kNone, kTensor, kSequence, kOptional, kResident };

  Value() = default;
  static Value FromTensor(Tensor t);
  // A sequence of tensors of one element type (kept for empty sequences).
  static Value FromSequence(DataType elem_type, std::vector<Tensor> tensors);
  // An optional holding `inner` (a tensor or a sequence).
  static Value OptionalOf(Value inner);
  // An empty optional; `inner_kind` and `elem_type` say what it would hold.
  static Value OptionalNone(Kind inner_kind, DataType elem_type);
  // A tensor held in a provider's memory; it never leaves the session (resident_tensor.h).
  static Value FromResident(std::shared_ptr<const ResidentTensor> resident);

  Kind kind() const { return kind_; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  bool is_sequence() const { return kind_ == Kind::kSequence; }
  bool is_optional() const { return kind_ == Kind::kOptional; }
  bool is_resident() const { return kind_ == Kind::kResident; }

  const Tensor& tensor() const { return tensor_; }
  Tensor& mutable_tensor() { return tensor_; }
  const std::vector<Tensor>& sequence() const { return sequence_; }
  // Element type of a tensor, a sequence, or what an optional holds.
  DataType elem_type() const { return elem_type_; }
  // For optionals: whether it holds a value, the value, and the kind it holds or would hold.
  bool has_value() const { return optional_ != nullptr; }
  const Value& optional_value() const { return *optional_; }
  Kind optional_inner_kind() const { return optional_inner_kind_; }
  // For resident tensors.
  const ResidentTensor& resident() const { return *resident_; }

  // "tensor(float)[2,3]", "seq(tensor(int64))[4 items]", "optional(tensor(float)): none".
  std::string TypeString() const;

 private:
  Kind kind_ = Kind::kNone;
  DataType elem_type_ = DataType::kUndefined;
  Tensor tensor_;
  std::vector<Tensor> sequence_;
  std::shared_ptr<const Value> optional_;
  std::shared_ptr<const ResidentTensor> resident_;
  Kind optional_inner_kind_ = Kind::kNone;
};

}  // namespace onnxgate
