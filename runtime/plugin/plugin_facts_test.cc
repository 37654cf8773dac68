// A plugin's facts survive the trip from probe to parent unchanged, and bytes that a sound probe
// would not send are refused with what is wrong, never trusted.
#include "runtime/plugin/plugin_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

PluginFacts SomeFacts() {
  PluginFacts facts;
  facts.name = "relu-plugin";
  facts.version = "1.0 (test)";
  facts.needs_case_isolation = true;
  facts.accepted.ir = {3, 11};
  facts.accepted.opsets[""] = {1, 23};
  facts.accepted.opsets["com.example"] = {1, 2};
  facts.providers = {"relu-cpu", "other"};
  OpClaim relu{"", "Relu", 6, 14, {{"T", {DataType::kFloat, DataType::kDouble}}}};
  facts.per_provider["relu-cpu"].claims = {relu};
  facts.per_provider["relu-cpu"].max_threads = 4;
  facts.per_provider["other"].claims_status = Unimplemented("cannot say");
  facts.per_provider["other"].threads_status = NotFound("no such provider");
  facts.per_provider["other"].availability = Unavailable("no other device");
  return facts;
}

TEST(PluginFactsTest, FactsRoundTrip) {
  auto back = DecodePluginFacts(EncodePluginFacts(SomeFacts()));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->name, "relu-plugin");
  EXPECT_EQ(back->version, "1.0 (test)");
  EXPECT_TRUE(back->needs_case_isolation);
  EXPECT_EQ(back->accepted.ir.max, 11);
  EXPECT_EQ(back->accepted.opsets.at("com.example").max, 2);
  EXPECT_EQ(back->providers, (std::vector<std::string>{"relu-cpu", "other"}));
  const PluginProviderFacts& relu = back->per_provider.at("relu-cpu");
  ASSERT_EQ(relu.claims.size(), 1u);
  EXPECT_EQ(relu.claims[0].op_type, "Relu");
  EXPECT_EQ(relu.claims[0].since_version, 6);
  EXPECT_EQ(relu.claims[0].until_version, 14);
  EXPECT_EQ(relu.claims[0].type_constraints[0].types,
            (std::vector<DataType>{DataType::kFloat, DataType::kDouble}));
  EXPECT_EQ(relu.max_threads, 4);
  const PluginProviderFacts& other = back->per_provider.at("other");
  EXPECT_EQ(other.claims_status.code(), StatusCode::kUnimplemented);
  EXPECT_EQ(other.claims_status.message(), "cannot say");
  EXPECT_EQ(other.threads_status.code(), StatusCode::kNotFound);
  EXPECT_TRUE(relu.availability.ok());
  EXPECT_EQ(other.availability.code(), StatusCode::kUnavailable);
  EXPECT_EQ(other.availability.message(), "no other device");
}

std::string DecodeError(const std::string& bytes) {
  auto facts = DecodePluginFacts(bytes);
  EXPECT_FALSE(facts.ok());
  return facts.status().message();
}

TEST(PluginFactsTest, TruncatedOrExtendedBytesAreRefused) {
  const std::string bytes = EncodePluginFacts(SomeFacts());
  for (size_t keep : {size_t{0}, size_t{5}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_THAT(DecodeError(bytes.substr(0, keep)), HasSubstr("truncated at")) << keep;
  }
  EXPECT_THAT(DecodeError(bytes + "x"), HasSubstr("trailing bytes"));
  EXPECT_THAT(DecodeError(std::string(64, '\xff')), HasSubstr("entries (at most"));
}

TEST(PluginFactsTest, CaseIsolationRoundTripsAndIsOneOfTwoValues) {
  PluginFacts facts = SomeFacts();
  facts.needs_case_isolation = false;
  auto back = DecodePluginFacts(EncodePluginFacts(facts));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_FALSE(back->needs_case_isolation);
  // The flag is the byte after the version string; any value but 0 or 1 is refused.
  std::string bytes = EncodePluginFacts(SomeFacts());
  const std::string version = "1.0 (test)";
  const size_t at = bytes.find(version);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(bytes[at + version.size()], '\1');
  bytes[at + version.size()] = '\7';
  EXPECT_THAT(DecodeError(bytes), HasSubstr("needs case isolation: 7 (expected 0 or 1)"));
}

// Status codes cross the probe's pipe by name: every code comes back as it went, and a name the
// parent does not know is refused.
TEST(PluginFactsTest, StatusCodesCrossByName) {
  for (StatusCode code : {StatusCode::kInvalidArgument, StatusCode::kDataLoss,
                          StatusCode::kNotFound, StatusCode::kUnimplemented,
                          StatusCode::kUnavailable, StatusCode::kInternal, StatusCode::kAborted}) {
    PluginFacts facts = SomeFacts();
    facts.per_provider["other"].claims_status = Status(code, "why");
    const std::string bytes = EncodePluginFacts(facts);
    EXPECT_NE(bytes.find(StatusCodeName(code)), std::string::npos) << StatusCodeName(code);
    auto back = DecodePluginFacts(bytes);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(back->per_provider.at("other").claims_status.code(), code) << StatusCodeName(code);
  }
  std::string bytes = EncodePluginFacts(SomeFacts());
  const size_t at = bytes.find("NOT_FOUND");
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 9, "NOT_FOUNX");
  EXPECT_THAT(DecodeError(bytes), HasSubstr("unknown status code 'NOT_FOUNX'"));
}

// The bytes of `facts` with the first occurrence of `from` (same length as `to`) replaced.
std::string Mutated(const PluginFacts& facts, const std::string& from, const std::string& to) {
  std::string bytes = EncodePluginFacts(facts);
  const size_t at = bytes.find(from);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) bytes.replace(at, from.size(), to);
  return bytes;
}

TEST(PluginFactsTest, NamesAndCountsPastTheirLimitsAreRefused) {
  PluginFacts facts = SomeFacts();
  facts.providers.push_back("../../pwned");
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("provider name '../../pwned'"));

  facts = SomeFacts();
  facts.name = "runtime with spaces";
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("runtime name"));

  facts = SomeFacts();
  facts.version = "bad \xff utf-8";
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("version is not valid UTF-8"));

  facts = SomeFacts();
  facts.per_provider["other"].availability = Unavailable("no \xff device");
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("availability is not valid UTF-8"));

  facts = SomeFacts();
  facts.providers.assign(kMaxPluginProviders + 1, "p");
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("providers: 257 entries"));

  facts = SomeFacts();
  facts.per_provider["relu-cpu"].claims[0].until_version = 2;  // below since_version 6
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("claim of Relu: versions 6 to 2"));

  facts = SomeFacts();
  facts.accepted.ir = {11, 3};
  EXPECT_THAT(DecodeError(EncodePluginFacts(facts)), HasSubstr("IR versions: 11 to 3"));

  // An element type outside ONNX's: the float (1) of T's two types becomes 99.
  facts = SomeFacts();
  auto u64 = [](uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); };
  EXPECT_THAT(DecodeError(Mutated(facts, "T" + u64(2) + u64(1), "T" + u64(2) + u64(99))),
              HasSubstr("element type 99 is not an ONNX type"));
}

}  // namespace
}  // namespace onnxgate
