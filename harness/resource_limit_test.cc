// The per-worker limits on the built-in runtime: a model that asks for 15 GiB is that case's
// verdict with a message naming the limit, and the gate goes on to the next case.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/builtin/builtin_runtime.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::AnyOf;
using ::testing::HasSubstr;

TEST(ResourceLimitTest, FifteenGibConstantOfShapeHitsTheMemoryLimit) {
  const std::string root = (fs::path(::testing::TempDir()) / "resource_limit_test").string();
  MiniCase huge{"huge_constant", "ConstantOfShape", Floats({1}), Floats({1})};
  // 4,026,531,840 floats: 15 GiB.
  huge.model_bytes =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "huge (float[1] X) => (float[1] Y) {\n"
      "  s = Constant <value = int64[1] {4026531840}> ()\n"
      "  big = ConstantOfShape <value = float[1] {1}> (s)\n"
      "  one = Constant <value = int64[1] {1}> ()\n"
      "  zero = Constant <value = int64[1] {0}> ()\n"
      "  head = Slice (big, zero, one)\n"
      "  Y = Mul (X, head)\n"
      "}\n";
  WriteMiniSuite(root, {huge, {"relu_ok", "Relu", Floats({-1, 2}), Floats({0, 2})}});

  RunCommandOptions options;
  options.root = root;
  options.suites = {"mini"};
  options.memory_limit_mb = 1024;
  options.json_path = root + "/out/run.json";
  std::unique_ptr<RuntimeUnderTest> runtime = CreateBuiltinRuntime();
  EXPECT_EQ(RunCommand(options, *runtime), 1);
  auto run = ReadRunJson(options.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), 2u);
  const CaseRecord& c = run->cases[0].name == "huge_constant" ? run->cases[0] : run->cases[1];
  const CaseRecord& ok = run->cases[0].name == "huge_constant" ? run->cases[1] : run->cases[0];
  // ref reports the failed allocation itself ("cannot allocate an output of shape
  // [4026531840]"); a runtime that lets std::bad_alloc escape is a CRASH naming the limit.
  EXPECT_NE(c.verdict, Verdict::kPass);
  EXPECT_THAT(c.message, AnyOf(HasSubstr("cannot allocate an output of shape [4026531840]"),
                               HasSubstr("ran out of its memory limit of 1024 MiB")))
      << VerdictToString(c.verdict) << ": " << c.message;
  EXPECT_EQ(ok.verdict, Verdict::kPass) << "the gate goes on after the case";
  fs::remove_all(root);
}

}  // namespace
}  // namespace onnxgate
