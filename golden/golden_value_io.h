// Values in golden files: a tensor is a dataset, a sequence a group of datasets "0", "1", ...,
// an optional a group with has_value and a child "value". Each carries kind and onnx_dtype.
// Reading checks what a dataset declares before allocating for it or reading its data.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <optional>
#include <string>

#include "golden/golden_limits.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/value.h"

namespace onnxgate {

// Creates the object `link_name` below `parent` holding `value` and returns it open (the caller
// adds name / index / tolerance attributes). `where` names the new object.
StatusOr<H5Handle> WriteValueObject(hid_t parent, const std::string& link_name, const Value& value,
                                    const H5Where& where);

// The limits of one golden's read and what its tensors may still declare, in bytes; each tensor
// read takes its share before anything is allocated for it.
struct GoldenReadBudget {
  explicit GoldenReadBudget(const GoldenReadLimits& limits = {})
      : limits(limits), bytes_left(limits.total_bytes) {}
  GoldenReadLimits limits;
  int64_t bytes_left;
};

// Reads the value stored in the open object `obj` (a dataset or group), checking kind,
// onnx_dtype against the HDF5 type and the shape attribute against the dataspace. Before any data
// of a dataset is touched: it must keep its bytes in this file (CheckSelfContainedDataset of
// golden/hdf5_containment.h), and its declared size (elements x bytes per element), its chunk size
// and the golden's running total must stay within golden/golden_limits.h's limits (DataLoss
// naming the object and both numbers otherwise).
StatusOr<Value> ReadValueObject(hid_t obj, const H5Where& where, GoldenReadBudget* budget);

// The index named by a link "0", "1", ... when it is a canonical decimal below `count`.
std::optional<size_t> ParseIndexLink(const std::string& name, size_t count);

}  // namespace onnxgate
