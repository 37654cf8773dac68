#include "conformance/expectations_naming.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

TEST(ExpectationsNamingTest, BuiltinRuntimeFileIsItsEp) {
  const ExpectationsOwner owner = ExpectationsOwnerOf("builtin", "", "onnxgate");
  auto name = ExpectationsFileName(owner, "ref");
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  EXPECT_EQ(*name, "ref.json");
  EXPECT_EQ(*ExpectationsFileName(owner, "dnnl"), "dnnl.json");
  // The built-in runtime loaded as a plugin keeps its files.
  const ExpectationsOwner plugin =
      ExpectationsOwnerOf("plugin:/b/libonnxgate_builtin_plugin.so", "", kBuiltinRuntimeName);
  EXPECT_EQ(*ExpectationsFileName(plugin, "ref"), "ref.json");
}

TEST(ExpectationsNamingTest, RegistryRuntimeFileIsItsRegistryName) {
  const ExpectationsOwner owner = ExpectationsOwnerOf("ort", "ort", "onnxruntime");
  EXPECT_EQ(*ExpectationsFileName(owner, "CPUExecutionProvider"), "ort.json");
}

TEST(ExpectationsNamingTest, OtherRuntimeFileIsItsNameAndEp) {
  const ExpectationsOwner a = ExpectationsOwnerOf("plugin:/x/liba.so", "", "alpha");
  const ExpectationsOwner b = ExpectationsOwnerOf("adapter:/x/b.py", "", "beta");
  EXPECT_EQ(*ExpectationsFileName(a, "CPUExecutionProvider"), "alpha.CPUExecutionProvider.json");
  EXPECT_EQ(*ExpectationsFileName(b, "CPUExecutionProvider"), "beta.CPUExecutionProvider.json");
}

TEST(ExpectationsNamingTest, UnsafeNamesAreRejected) {
  auto bad_ep = ExpectationsFileName({ExpectationsOwner::Kind::kBuiltin, ""}, "../x");
  ASSERT_FALSE(bad_ep.ok());
  EXPECT_NE(bad_ep.status().message().find("EP"), std::string::npos);
  auto bad_name = ExpectationsFileName({ExpectationsOwner::Kind::kOther, "a/b"}, "cpu");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_NE(bad_name.status().message().find("runtime name"), std::string::npos);
}

}  // namespace
}  // namespace onnxgate
