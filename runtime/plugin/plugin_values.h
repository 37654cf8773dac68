// Values across the plugin ABI (include/onnxgate/plugin.h), both ways: an onnxgate Value shown
// as an OnnxgateValue that borrows its storage, and an OnnxgateValue a plugin handed over,
// checked field by field and copied into a Value.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "onnxgate/plugin.h"
#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

// An OnnxgateValue over `value`'s storage; the Value must outlive it. Keeps the arrays the
// OnnxgateValue points into (string views, sequence items). Not copyable: the OnnxgateValue
// points into it.
class AbiValue {
 public:
  explicit AbiValue(const Value& value);
  AbiValue(const AbiValue&) = delete;
  AbiValue& operator=(const AbiValue&) = delete;
  const OnnxgateValue& get() const { return abi_; }

 private:
  void ShowTensor(const Tensor& tensor, OnnxgateValue* out);

  OnnxgateValue abi_{};
  std::vector<std::vector<OnnxgateString>> strings_;
  std::vector<OnnxgateValue> items_;
  std::vector<std::unique_ptr<AbiValue>> inner_;
};

// Copies what a plugin returned. InvalidArgument naming `what` for an unknown kind or element
// type, a negative or overflowing dim, a null data pointer for a tensor with elements, a
// data_bytes that is not the dense size, a null string, a sequence item that is not a tensor
// of the sequence's type, or an optional with more than one item.
StatusOr<Value> ValueFromAbi(const OnnxgateValue& value, const std::string& what);

}  // namespace onnxgate
