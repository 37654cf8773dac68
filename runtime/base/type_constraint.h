// One type constraint of an op's schema ("T", "T1", ...) and the element types a kernel or a
// runtime accepts for it. For sequence and optional constraints the element type is listed.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/data_type.h"

namespace onnxgate {

struct TypeConstraint {
  std::string name;
  std::vector<DataType> types;
};

}  // namespace onnxgate
