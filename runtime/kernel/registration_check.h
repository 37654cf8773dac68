// Checks a kernel registration table against ONNX's schema registry: every version range starts
// at a schema version and is closed where the kernel's checked semantics end, every declared
// type is allowed by each schema version it claims, and within each op's claimed span every
// schema version is covered with all of its types.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/kernel/kernel_def.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnxgate {

struct RegistrationCheckOptions {
  // Domain ("" for ai.onnx) -> the newest opset whose semantics the table's kernels were checked
  // against. A def claiming a schema version that starts after it is a violation, even when its
  // range is otherwise well formed (ReduceMean 13..18 in a table checked through opset 17).
  // Domains not listed are bounded only by what the schema registry knows.
  std::map<std::string, int> checked_through;
  // Qualified op names ("GridSample", "ai.onnx.ml.Imputer") whose kernels deliberately accept
  // fewer types than the schema allows; CheckRegistrationCoverage skips their type coverage.
  std::set<std::string> narrower_than_schema;
};

// The version ranges and types of `defs`. Returns InvalidArgument listing every violation, one
// per line, each naming the op and the range:
//   - ONNX knows no such op;
//   - the range starts inside a schema version (since is not one of the op's since-versions);
//   - the range ends neither right before the op's next since-version nor at a since-version of
//     its own, i.e. it claims versions past the last one it was checked against (an open-ended
//     until_version when ONNX knows no later version, an until that runs into a newer one);
//   - it claims a schema version newer than options.checked_through allows for its domain;
//   - it declares a constraint or type that a claimed schema version does not allow.
Status CheckRegistrationRanges(const std::vector<const KernelDef*>& defs,
                               const RegistrationCheckOptions& options = {});
Status CheckRegistrationRanges(const KernelRegistry& registry,
                               const RegistrationCheckOptions& options = {});

// Coverage within each op's claimed span, from the first since-version any def of the op claims
// to the last: every non-deprecated schema version in between has a kernel, and the kernels
// claiming it together accept every type of every constraint (unless the op is listed in
// options.narrower_than_schema). Versions after the span are not checked: they are newer
// versions nobody has implemented yet, which the `ops` command reports as lacking.
// InvalidArgument listing every gap.
Status CheckRegistrationCoverage(const std::vector<const KernelDef*>& defs,
                                 const RegistrationCheckOptions& options = {});
Status CheckRegistrationCoverage(const KernelRegistry& registry,
                                 const RegistrationCheckOptions& options = {});

}  // namespace onnxgate
