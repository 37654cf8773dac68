// KernelRegistry: the kernels of one execution provider, filled from an explicit registration
// table (no static initialisers). Refuses two kernels that would both claim the same node.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/kernel/kernel_def.h"

namespace onnxgate {

class KernelRegistry {
 public:
  // InvalidArgument when the def's range is empty or not closed at a real opset (until_version
  // above kMaxPlausibleOpset), or when it overlaps a registered one: same domain and op,
  // overlapping version ranges, and every type constraint sharing at least one type.
  Status Register(KernelDef def);

  // The kernel for (domain, op_type) at active version `version` whose constraints accept
  // `bound_types` (constraint name -> element type; constraints absent from the map are not
  // checked). Unimplemented with a reason naming op, version and types when none matches.
  StatusOr<const KernelDef*> Find(const std::string& domain, const std::string& op_type,
                                  int version,
                                  const std::map<std::string, DataType>& bound_types) const;

  // Every registered def, in registration order.
  std::vector<const KernelDef*> All() const;

 private:
  std::vector<KernelDef> defs_;
};

}  // namespace onnxgate
