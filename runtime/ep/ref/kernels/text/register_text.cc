// The ref EP's registration table for ONNX's text family (onnx/defs/text), each line one version
// range of the op's ONNX schema with the types it allows.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/text/regex_full_match.h"
#include "runtime/ep/ref/kernels/text/string_concat.h"
#include "runtime/ep/ref/kernels/text/string_normalizer.h"
#include "runtime/ep/ref/kernels/text/string_split.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

}  // namespace

Status RegisterTextKernels(KernelRegistry& r) {
  // StringNormalizer-10: X and Y are string tensors; the schema has no type constraint.
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "StringNormalizer", 10, 10, {}, FactoryOf<StringNormalizerKernel>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "StringConcat", 20, 20, {{"T", {kStr}}}, FactoryOf<StringConcatKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "StringSplit", 20, 20,
                               {{"T1", {kStr}}, {"T2", {kStr}}, {"T3", {kI64}}},
                               FactoryOf<StringSplitKernel>()));
  return Def(r, "RegexFullMatch", 20, 20, {{"T1", {kStr}}, {"T2", {kBool}}},
             FactoryOf<RegexFullMatchKernel>());
}

}  // namespace onnxgate
