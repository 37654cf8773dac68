// The attributes of the pooling ops (MaxPool, AveragePool, LpPool and their Global forms) as
// each op version defines them: the window attributes of conv_attributes.h plus each op's own,
// checked once here so that every provider's pooling kernel refuses the same nodes in the same
// words.
#pragma once

#include "runtime/base/status.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate {

enum class PoolKind { kMax, kAverage, kLp };

struct PoolOptions {
  PoolKind kind = PoolKind::kMax;
  bool global = false;                // the window is the whole spatial extent
  bool count_include_pad = false;     // AveragePool: divide by the padded window size
  double p = 2;                       // LpPool's exponent (a float in version 1)
  bool column_major_indices = false;  // MaxPool's storage_order = 1
};

// The window attributes every non-global pooling op reads: kernel_shape required, ceil_mode
// and dilations where the op version defines them.
StatusOr<ConvPoolAttributes> ParsePoolAttributes(const KernelInfo& info, bool has_ceil_mode,
                                                 bool has_dilations);

// The attributes of a MaxPool or AveragePool node as its version defines them, checked: the
// window attributes (ceil_mode from 10, dilations from MaxPool-10 and AveragePool-19),
// storage_order (MaxPool-8 on, 0 or 1) and count_include_pad (AveragePool-7 on); an attribute or
// the Indices output used before its version is InvalidArgument.
struct WindowPoolAttributes {
  ConvPoolAttributes attrs;
  PoolOptions options;  // kind, count_include_pad, column_major_indices
};
StatusOr<WindowPoolAttributes> ParseMaxPoolAttributes(const KernelInfo& info);
StatusOr<WindowPoolAttributes> ParseAveragePoolAttributes(const KernelInfo& info);

}  // namespace onnxgate
