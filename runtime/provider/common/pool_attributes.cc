// The attributes of the pooling ops as each version defines them, read and checked once for
// every provider.
#include "runtime/provider/common/pool_attributes.h"

#include <string>

namespace onnxgate {

namespace {

Status RejectAttribute(const KernelInfo& info, const char* attr, const char* since) {
  if (info.has_attribute(attr)) {
    return InvalidArgument(std::string("attribute '") + attr + "' is only defined from " + since);
  }
  return OkStatus();
}

}  // namespace

StatusOr<ConvPoolAttributes> ParsePoolAttributes(const KernelInfo& info, bool has_ceil_mode,
                                                 bool has_dilations) {
  ConvPoolAttributeSet set;
  set.kernel_shape_required = true;
  set.has_ceil_mode = has_ceil_mode;
  set.has_dilations = has_dilations;
  return ParseConvPoolAttributes(info, set);
}

StatusOr<WindowPoolAttributes> ParseMaxPoolAttributes(const KernelInfo& info) {
  const int v = info.since_version();
  WindowPoolAttributes p;
  ONNXGATE_ASSIGN_OR_RETURN(p.attrs, ParsePoolAttributes(info, v >= 10, v >= 10));
  p.options.kind = PoolKind::kMax;
  if (v < 8) {
    ONNXGATE_RETURN_IF_ERROR(RejectAttribute(info, "storage_order", "MaxPool-8"));
    if (info.num_outputs() > 1) {
      return InvalidArgument("the Indices output is only defined from MaxPool-8");
    }
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t storage_order, info.GetInt("storage_order", 0));
    if (storage_order != 0 && storage_order != 1) {
      return InvalidArgument("'storage_order' must be 0 or 1, got " +
                             std::to_string(storage_order));
    }
    p.options.column_major_indices = storage_order == 1;
  }
  return p;
}

StatusOr<WindowPoolAttributes> ParseAveragePoolAttributes(const KernelInfo& info) {
  const int v = info.since_version();
  WindowPoolAttributes p;
  // AveragePool-10 adds ceil_mode, -19 dilations.
  ONNXGATE_ASSIGN_OR_RETURN(p.attrs, ParsePoolAttributes(info, v >= 10, v >= 19));
  p.options.kind = PoolKind::kAverage;
  if (v < 7) {
    ONNXGATE_RETURN_IF_ERROR(RejectAttribute(info, "count_include_pad", "AveragePool-7"));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t include, info.GetInt("count_include_pad", 0));
    p.options.count_include_pad = include != 0;
  }
  return p;
}

}  // namespace onnxgate
