// Checks the ai.onnx registration tables against ONNX's schema registry: every version range
// starts and ends where the schema's versions do, every declared type is allowed
// by the schema, and every schema version from the first registered one on is covered with all
// of its types.
#include <onnx/defs/schema.h>

#include <map>
#include <set>
#include <string>

#include "runtime/ep/ref/kernels/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

constexpr int kMaxOpset = 17;  // ONNX 1.12

// Ops whose kernels claim fewer types than the schema allows, and why. The session reports the
// other types UNSUPPORTED with the op, version and types named.
const std::set<std::string> kNarrowerThanSchema = {
    "GridSample",  // interpolates floats only; the schema's T1 admits every tensor type
};

// "tensor(float)", "seq(tensor(int64))", "optional(seq(tensor(bool)))" -> the element type.
std::optional<DataType> ElementTypeOf(std::string s) {
  for (const char* wrapper : {"optional(", "seq(", "tensor("}) {
    const std::string w = wrapper;
    if (s.rfind(w, 0) == 0) s = s.substr(w.size(), s.size() - w.size() - 1);
  }
  auto t = DataTypeFromName(s);
  if (!t.ok()) return std::nullopt;
  return *t;
}

// The schema versions of an ai.onnx op, by since_version.
std::map<int, const onnx::OpSchema*> SchemaVersions(const std::string& op) {
  std::map<int, const onnx::OpSchema*> out;
  for (int v = 1; v <= kMaxOpset; ++v) {
    const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(op, v, "");
    if (s != nullptr) out[s->SinceVersion()] = s;
  }
  return out;
}

std::map<std::string, std::set<DataType>> AllowedTypes(const onnx::OpSchema& s) {
  std::map<std::string, std::set<DataType>> out;
  for (const auto& c : s.typeConstraintParams()) {
    for (const auto& t : c.allowed_type_strs) {
      if (auto e = ElementTypeOf(t)) out[c.type_param_str].insert(*e);
    }
  }
  return out;
}

class RegistrationTest : public ::testing::TestWithParam<Status (*)(KernelRegistry&)> {
 protected:
  KernelRegistry registry_ = RegistryOf(GetParam());
};

TEST_P(RegistrationTest, RangesAndTypesFollowTheSchemas) {
  for (const KernelDef* def : registry_.All()) {
    SCOPED_TRACE(def->op_type + "-" + std::to_string(def->since_version));
    const auto versions = SchemaVersions(def->op_type);
    ASSERT_FALSE(versions.empty()) << "no ONNX schema";
    EXPECT_EQ(versions.count(def->since_version), 1u) << "range starts inside a schema version";
    // A range may also close at the last opset ONNX 1.12 knows, so that a later opset's
    // semantics are never assumed.
    if (def->until_version != kOpenEndedVersion && def->until_version != kMaxOpset) {
      EXPECT_EQ(versions.count(def->until_version + 1), 1u)
          << "range ends inside a schema version (until " << def->until_version << ")";
    }
    for (const auto& [since, schema] : versions) {
      if (since < def->since_version || since > def->until_version) continue;
      const auto allowed = AllowedTypes(*schema);
      for (const TypeConstraint& c : def->type_constraints) {
        auto it = allowed.find(c.name);
        ASSERT_NE(it, allowed.end()) << "constraint " << c.name << " not in version " << since;
        for (DataType t : c.types) {
          EXPECT_EQ(it->second.count(t), 1u)
              << c.name << "=" << DataTypeShortName(t) << " is not allowed by version " << since;
        }
      }
    }
  }
}

TEST_P(RegistrationTest, EverySchemaVersionIsCoveredWithAllItsTypes) {
  std::map<std::string, int> first_version;
  for (const KernelDef* def : registry_.All()) {
    auto [it, inserted] = first_version.emplace(def->op_type, def->since_version);
    if (!inserted) it->second = std::min(it->second, def->since_version);
  }
  for (const auto& [op, first] : first_version) {
    if (kNarrowerThanSchema.count(op) != 0) continue;
    for (const auto& [since, schema] : SchemaVersions(op)) {
      if (since < first || schema->Deprecated()) continue;  // e.g. Scatter-11
      SCOPED_TRACE(op + "-" + std::to_string(since));
      std::map<std::string, std::set<DataType>> covered;
      bool any = false;
      for (const KernelDef* def : registry_.All()) {
        if (def->op_type != op || since < def->since_version || since > def->until_version) {
          continue;
        }
        any = true;
        for (const TypeConstraint& c : def->type_constraints) {
          covered[c.name].insert(c.types.begin(), c.types.end());
        }
      }
      ASSERT_TRUE(any) << "no kernel for this version";
      for (const auto& [name, types] : AllowedTypes(*schema)) {
        for (DataType t : types) {
          EXPECT_EQ(covered[name].count(t), 1u)
              << name << "=" << DataTypeShortName(t) << " has no kernel";
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Families, RegistrationTest,
                         ::testing::Values(&RegisterElementwiseKernels, &RegisterTensorKernels,
                                           &RegisterNnKernels, &RegisterReductionKernels,
                                           &RegisterControlFlowKernels, &RegisterIndexingKernels,
                                           &RegisterSignalKernels, &RegisterTextKernels));

}  // namespace
}  // namespace onnxgate::ref
