// Tests for tolerances.json loading and the precedence of the tolerance layers.
#include "conformance/tolerances.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

constexpr char kFile[] = R"({
  "format": "onnxgate-tolerances",
  "format_version": 1,
  "about": "test",
  "dtypes": {
    "float16": {"rtol": 4e-3, "atol": 1e-5, "why": "fp16"},
    "BFLOAT16": {"rtol": 8e-3, "why": "bf16"}
  },
  "ops": {
    "Erf": {"rtol": 2e-3, "why": "polynomial approximation"},
    "Tight": {"rtol": 1e-5, "why": "would tighten; general entries may not"},
    "Exact": {"dtypes": {"float16": {"rtol": 1e-4, "atol": 0, "why": "exact at fp16"}}},
    "Wide": {"atol": 1e-3, "why": "cancellation",
             "dtypes": {"bfloat16": {"atol": 5e-2, "why": "x"}}}
  }
})";

ToleranceLayers Layers() {
  StatusOr<ToleranceLayers> layers = ToleranceLayers::FromJsonText(kFile, "t.json");
  EXPECT_TRUE(layers.ok()) << layers.status().ToString();
  return layers.ok() ? *layers : ToleranceLayers();
}

Status ParseError(const std::string& text) {
  StatusOr<ToleranceLayers> layers = ToleranceLayers::FromJsonText(text, "bad.json");
  return layers.ok() ? OkStatus() : layers.status();
}

std::string WithDtypes(const std::string& dtypes) {
  return R"({"format": "onnxgate-tolerances", "format_version": 1, "dtypes": )" + dtypes + "}";
}

// A hostile file must not crash the process that reads it: the nesting is refused before parsing.
TEST(TolerancesTest, ArrayNestedHundredThousandDeepIsRefused) {
  const std::string deep =
      "{\"dtypes\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto layers = ToleranceLayers::FromJsonText(deep, "deep-tolerances.json");
  ASSERT_FALSE(layers.ok());
  EXPECT_THAT(layers.status().message(),
              HasSubstr("deep-tolerances.json: brackets nest deeper than 64 levels"));
}

TEST(TolerancesTest, EmptyLayersGiveTheOnnxDefaults) {
  Tolerance t = ToleranceLayers().Resolve({"Add"}, DataType::kFloat);
  EXPECT_EQ(t.rtol, 1e-3);
  EXPECT_EQ(t.atol, 1e-7);
  EXPECT_EQ(t, Tolerance());
  EXPECT_EQ(t.ToString(), "rtol=0.001 atol=1e-07");
}

TEST(TolerancesTest, DtypeEntryReplacesTheDefaults) {
  ToleranceLayers layers = Layers();
  EXPECT_EQ(layers.Resolve({"Add"}, DataType::kFloat16), (Tolerance{4e-3, 1e-5}));
  EXPECT_EQ(layers.Resolve({"Add"}, DataType::kBFloat16), (Tolerance{8e-3, 1e-7}));
  EXPECT_EQ(layers.Resolve({}, DataType::kBFloat16), (Tolerance{8e-3, 1e-7}));
  EXPECT_EQ(layers.Resolve({"Add"}, DataType::kFloat), Tolerance());
}

TEST(TolerancesTest, GeneralOpEntryOnlyLoosens) {
  ToleranceLayers layers = Layers();
  EXPECT_EQ(layers.Resolve({"Erf"}, DataType::kFloat).rtol, 2e-3);
  EXPECT_EQ(layers.Resolve({"Erf"}, DataType::kFloat16).rtol, 4e-3);  // dtype needs more
  EXPECT_EQ(layers.Resolve({"Tight"}, DataType::kFloat).rtol, 1e-3);
}

TEST(TolerancesTest, OpAndDtypeEntryIsExact) {
  ToleranceLayers layers = Layers();
  EXPECT_EQ(layers.Resolve({"Exact"}, DataType::kFloat16), (Tolerance{1e-4, 0}));
  EXPECT_EQ(layers.Resolve({"Exact"}, DataType::kFloat), Tolerance());
  EXPECT_EQ(layers.Resolve({"Wide"}, DataType::kBFloat16), (Tolerance{8e-3, 5e-2}));
  EXPECT_EQ(layers.Resolve({"Wide"}, DataType::kFloat), (Tolerance{1e-3, 1e-3}));
}

TEST(TolerancesTest, SeveralOpsGetTheLoosestValue) {
  ToleranceLayers layers = Layers();
  EXPECT_EQ(layers.Resolve({"Erf", "Wide"}, DataType::kFloat), (Tolerance{2e-3, 1e-3}));
  // Add has no entry, so it needs the float16 base, which is looser than Exact's entry.
  EXPECT_EQ(layers.Resolve({"Exact", "Add"}, DataType::kFloat16), (Tolerance{4e-3, 1e-5}));
}

TEST(TolerancesTest, CaseOutputAndCommandLineOverrideInOrder) {
  ToleranceLayers layers = Layers();
  ToleranceOverride case_tol{2e-2, std::nullopt};
  ToleranceOverride output_tol{std::nullopt, 3e-3};
  ToleranceOverride cli{5e-1, std::nullopt};
  EXPECT_EQ(layers.Resolve({"Erf"}, DataType::kFloat, case_tol), (Tolerance{2e-2, 1e-7}));
  EXPECT_EQ(layers.Resolve({"Erf"}, DataType::kFloat, case_tol, output_tol),
            (Tolerance{2e-2, 3e-3}));
  EXPECT_EQ(layers.Resolve({"Erf"}, DataType::kFloat, case_tol, output_tol, cli),
            (Tolerance{5e-1, 3e-3}));
  // A case may tighten below what the file says.
  EXPECT_EQ(layers.Resolve({"Erf"}, DataType::kFloat, {1e-6, 0}), (Tolerance{1e-6, 0}));
}

TEST(TolerancesTest, SourcesNameTheLayer) {
  ToleranceLayers layers = Layers();
  ResolvedTolerance r = layers.ResolveWithSources({"Erf"}, DataType::kFloat16);
  EXPECT_EQ(r.rtol_source, "t.json: dtypes.float16");
  EXPECT_EQ(r.atol_source, "t.json: dtypes.float16");
  r = layers.ResolveWithSources({"Erf", "Wide"}, DataType::kBFloat16, {}, {}, {1.0, {}});
  EXPECT_EQ(r.rtol_source, "command line");
  EXPECT_EQ(r.atol_source, "t.json: ops.Wide.dtypes.bfloat16");
  r = layers.ResolveWithSources({"Erf"}, DataType::kFloat, {}, {{}, 1e-4});
  EXPECT_EQ(r.rtol_source, "t.json: ops.Erf");
  EXPECT_EQ(r.atol_source, "output");
  r = ToleranceLayers().ResolveWithSources({}, DataType::kDouble);
  EXPECT_EQ(r.rtol_source, "ONNX default");
}

TEST(TolerancesTest, KeepsEntriesForListing) {
  ToleranceLayers layers = Layers();
  EXPECT_EQ(layers.source(), "t.json");
  ASSERT_EQ(layers.dtype_entries().count(DataType::kBFloat16), 1u);
  EXPECT_EQ(layers.dtype_entries().at(DataType::kBFloat16).why, "bf16");
  ASSERT_EQ(layers.op_entries().count("Exact"), 1u);
  EXPECT_TRUE(layers.op_entries().at("Exact").op.values.empty());
}

TEST(TolerancesTest, ErrorsNameTheFileAndKey) {
  Status s = ParseError("{");
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("bad.json: not valid JSON"));

  EXPECT_THAT(ParseError(R"({"format_version": 1})").message(),
              HasSubstr("bad.json: format: expected \"onnxgate-tolerances\", got nothing"));
  EXPECT_THAT(ParseError(R"({"format": "onnxgate-tolerances", "format_version": 2})").message(),
              HasSubstr("bad.json: format_version: expected 1, got 2"));
  EXPECT_THAT(
      ParseError(WithDtypes(R"({"float16": {"rtol": -1, "why": "x"}})")).message(),
      HasSubstr("bad.json: dtypes.float16: rtol must be a finite number in [0, 1], got -1"));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float16": {"atol": 1e300, "why": "x"}})")).message(),
              HasSubstr("dtypes.float16: atol must be a finite number in [0, 1000], got 1e+300"));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float16": {"rtol": "big", "why": "x"}})")).message(),
              HasSubstr("dtypes.float16.rtol: expected a number, got \"big\""));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float17": {"rtol": 1, "why": "x"}})")).message(),
              HasSubstr("bad.json: dtypes.float17: unknown data type 'float17'"));
  EXPECT_THAT(ParseError(WithDtypes(R"({"int32": {"rtol": 1, "why": "x"}})")).message(),
              HasSubstr("dtypes.int32: tolerances apply only to floating-point"));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float": {"rtol": 1}})")).message(),
              HasSubstr("dtypes.float: every entry needs a non-empty \"why\""));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float": {"why": "x"}})")).message(),
              HasSubstr("dtypes.float: the entry sets neither rtol nor atol"));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float": {"rtol": 1, "why": "x", "rtl": 2}})")).message(),
              HasSubstr("dtypes.float.rtl: unknown field"));
  EXPECT_THAT(ParseError(WithDtypes(R"({"float": {"rtol": 1, "why": "x"},
                                        "FLOAT": {"rtol": 1, "why": "x"}})"))
                  .message(),
              HasSubstr("data type given twice"));
  EXPECT_THAT(ParseError(R"({"format": "onnxgate-tolerances", "format_version": 1,
                             "ops": {"Conv": {"dtypes": {"float16": {"atol": 1}}}}})")
                  .message(),
              HasSubstr("bad.json: ops.Conv.dtypes.float16: every entry needs"));
  EXPECT_THAT(ParseError(R"({"format": "onnxgate-tolerances", "format_version": 1,
                             "dtype": {}})")
                  .message(),
              HasSubstr("bad.json: dtype: unknown field"));
}

TEST(TolerancesTest, LoadFileReportsAMissingFile) {
  StatusOr<ToleranceLayers> layers = ToleranceLayers::LoadFile("/nonexistent/tolerances.json");
  ASSERT_FALSE(layers.ok());
  EXPECT_EQ(layers.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(layers.status().message(), HasSubstr("/nonexistent/tolerances.json"));
}

TEST(TolerancesTest, LoadFileReadsAFile) {
  std::string path = ::testing::TempDir() + "/onnxgate_tolerances_test.json";
  {
    std::ofstream out(path);
    out << kFile;
  }
  StatusOr<ToleranceLayers> layers = ToleranceLayers::LoadFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(layers.ok()) << layers.status().ToString();
  EXPECT_EQ(layers->Resolve({"Erf"}, DataType::kFloat).rtol, 2e-3);
  EXPECT_EQ(layers->ResolveWithSources({"Erf"}, DataType::kFloat).rtol_source, path + ": ops.Erf");
}

TEST(TolerancesTest, ShippedFileLoadsAndKeepsFloatAtTheDefaults) {
  StatusOr<ToleranceLayers> layers = ToleranceLayers::LoadFile(ONNXGATE_TOLERANCES_JSON);
  ASSERT_TRUE(layers.ok()) << layers.status().ToString();
  EXPECT_EQ(layers->Resolve({"Conv"}, DataType::kFloat), Tolerance());
  EXPECT_EQ(layers->Resolve({"Conv"}, DataType::kDouble), Tolerance());
  // A bfloat16 ULP is up to 2^-7 of the value; the resolved rtol must admit one.
  EXPECT_GE(layers->Resolve({"Conv"}, DataType::kBFloat16).rtol, std::ldexp(1.0, -7));
  EXPECT_GE(layers->Resolve({"Conv"}, DataType::kFloat16).rtol, std::ldexp(1.0, -10));
}

TEST(TolerancesTest, OverrideValidation) {
  EXPECT_TRUE((ToleranceOverride{1e-3, 0}.Validate("x")).ok());
  EXPECT_TRUE(ToleranceOverride{}.Validate("x").ok());
  Status s = ToleranceOverride{std::nullopt, -1.0}.Validate("suite.json: case test_add");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("suite.json: case test_add: atol must be a finite number"));
  EXPECT_FALSE((ToleranceOverride{NAN, std::nullopt}.Validate("x")).ok());
}

}  // namespace
}  // namespace onnxgate
