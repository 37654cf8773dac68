// What ONNX's operator schema registry says, for the rest of onnxgate: the ONNX release linked,
// the highest opset of each domain and IR version, every operator's version history, and each
// op's active schema at a model's opset (the formal inputs and outputs, the type constraints).
// This adapter is the only code that includes ONNX's schema headers; callers see plain values.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/onnx/domain.h"

namespace onnx {
class OpSchema;
}

namespace onnxgate {

// The ONNX release onnxgate is built against, such as "1.23.2".
const char* OnnxReleaseVersion();
// The highest IR version that release knows (onnx.proto's IR_VERSION).
int MaxIrVersion();
// The highest opset of `domain` ("" or "ai.onnx" for the default domain) that the schema
// registry knows; -1 for a domain it does not know.
int MaxOpset(const std::string& domain);
// Every domain the schema registry knows ("" for the default domain), sorted.
std::vector<std::string> KnownDomains();

// One formal input or output of a schema.
struct FormalParameter {
  enum class Option { kSingle, kOptional, kVariadic };
  std::string name;
  std::string type_str;  // a constraint name ("T") or a fixed type ("tensor(int64)")
  Option option = Option::kSingle;
  bool homogeneous = true;  // variadic: every value has the same type
};

// One op version's schema; a cheap handle valid for the process's lifetime.
class OpSpec {
 public:
  // The schema active for `op_type` at `opset` of `domain` (Schema(op, opset, domain)), or
  // nullopt when ONNX knows no such op at that opset.
  static std::optional<OpSpec> Find(const std::string& op_type, int opset,
                                    const std::string& domain);

  std::string op_type() const;
  std::string domain() const;  // "" for the default domain
  int since_version() const;
  bool deprecated() const;
  // The source file of ONNX that defines the schema ("onnx/defs/math/defs.cc"); its folder under
  // onnx/defs/ is the op's family.
  std::string defining_file() const;
  std::vector<FormalParameter> inputs() const;
  std::vector<FormalParameter> outputs() const;
  // Constraint name -> the allowed type strings ("tensor(float)", "seq(tensor(int64))").
  std::map<std::string, std::vector<std::string>> type_constraints() const;
  // Constraint name -> the element types of those strings (seq/optional unwrapped; map and
  // sparse types left out).
  std::map<std::string, std::set<DataType>> AllowedElementTypes() const;

 private:
  explicit OpSpec(const onnx::OpSchema* schema) : schema_(schema) {}
  const onnx::OpSchema* schema_;
};

// The element type named by a type string: "tensor(float)", "seq(tensor(int64))",
// "optional(seq(tensor(bool)))" -> float, int64, bool; nullopt for maps, sparse tensors and
// anything else.
std::optional<DataType> ElementTypeOfTypeString(const std::string& type_str);

// An operator and the opsets at which its versions start.
struct OperatorVersions {
  std::string domain;  // "" for the default domain, "ai.onnx.ml", "ai.onnx.preview.training", ...
  std::string op_type;
  std::vector<int> since_versions;  // ascending
  bool deprecated = false;          // the newest version is deprecated
};

// Every operator of every known domain with its version history, sorted by domain and name.
std::vector<OperatorVersions> AllOperators();
// The since-versions of one operator, ascending; empty when ONNX does not know it.
std::vector<int> SinceVersions(const std::string& domain, const std::string& op_type);

}  // namespace onnxgate
