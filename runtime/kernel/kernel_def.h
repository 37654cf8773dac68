// KernelDef: the key under which a kernel is registered: (domain, op, since..until version,
// allowed types per schema type constraint) and the factory that builds it for one node.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/base/type_constraint.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate {

using KernelFactory = std::function<StatusOr<std::unique_ptr<OpKernel>>(const KernelInfo&)>;

// Version ranges are closed. A range ends at the last opset whose semantics the kernel was
// checked against, and is written as a set of schema versions: since_version is the
// since-version of the first schema version the kernel implements, and until_version is
//   - (the op's next since-version) - 1 when ONNX knows a later version of the op (ReduceMean
//     13..17, since ReduceMean-18 makes axes an input), or
//   - the since-version of the last schema version the kernel implements when ONNX knows no
//     later one (Abs 13..13).
// There is no open-ended range: a newer ONNX that adds a version of an op must never hand it,
// silently, to a kernel written for the older semantics; the session reports such a node
// UNSUPPORTED instead. runtime/kernel/registration_check.h enforces this for whole tables.
//
// No opset comes anywhere near this; KernelRegistry::Register refuses an until_version above it
// (INT_MAX and the like) as an open-ended claim in disguise.
constexpr int kMaxPlausibleOpset = 1000;

struct KernelDef {
  std::string domain;  // "" for ai.onnx
  std::string op_type;
  int since_version = 1;
  int until_version = 0;  // inclusive; must be set (see the convention above)
  std::vector<TypeConstraint> type_constraints;
  KernelFactory factory;
};

// Whether kernel class K has `static ... Create(const KernelInfo&)`.
template <typename K, typename = void>
struct HasCreate : std::false_type {};
template <typename K>
struct HasCreate<K, std::void_t<decltype(K::Create(std::declval<const KernelInfo&>()))>>
    : std::true_type {};

// The factory for kernel class K. The kernel idiom: a kernel derives from OpKernel and
// implements Compute; one that reads attributes (or refuses a node at load time) also has
//   static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
// and FactoryOf calls it. A kernel without Create is stateless and is default-constructed.
// Neither names the node in its errors: the session adds the node and its op version once.
template <typename K>
KernelFactory FactoryOf() {
  if constexpr (HasCreate<K>::value) {
    return [](const KernelInfo& info) { return K::Create(info); };
  } else {
    static_assert(std::is_default_constructible_v<K>,
                  "a kernel without Create must be default-constructible");
    return [](const KernelInfo&) -> StatusOr<std::unique_ptr<OpKernel>> {
      return std::unique_ptr<OpKernel>(std::make_unique<K>());
    };
  }
}

// Common type lists for constraints.
inline const std::vector<DataType>& FloatTypes() {  // float, double, float16, bfloat16
  static const std::vector<DataType> t = {DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                                          DataType::kBFloat16};
  return t;
}
inline const std::vector<DataType>& IntegerTypes() {
  static const std::vector<DataType> t = {DataType::kInt8,   DataType::kInt16, DataType::kInt32,
                                          DataType::kInt64,  DataType::kUint8, DataType::kUint16,
                                          DataType::kUint32, DataType::kUint64};
  return t;
}
inline const std::vector<DataType>& NumericTypes() {  // FloatTypes + IntegerTypes
  static const std::vector<DataType> t = [] {
    std::vector<DataType> v = FloatTypes();
    v.insert(v.end(), IntegerTypes().begin(), IntegerTypes().end());
    return v;
  }();
  return t;
}

}  // namespace onnxgate
