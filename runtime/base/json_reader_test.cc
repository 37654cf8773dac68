// Tests of the one JSON reader: each kind of error names the file and the JSON path, and nothing
// throws on a hostile value.
#include "runtime/base/json_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

enum class Color { kRed, kGreen };

JsonDocument Doc(const std::string& text, JsonNull null = JsonNull::kIsAValue) {
  auto doc = JsonDocument::Parse(text, "x.json", null);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return std::move(doc).value();
}

// The message of the first entry's `key` read as T.
template <typename T>
std::string EntryError(const std::string& text, const char* key) {
  JsonDocument doc = Doc(text);
  auto root = doc.RootObject();
  EXPECT_TRUE(root.ok());
  std::string message = "(no error)";
  Status st = root->ForEachObject("entries", [&](const JsonObject& entry) {
    T value{};
    return entry.Require(key, &value);
  });
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  return st.message();
}

TEST(JsonReaderTest, ReadsTypedFields) {
  JsonDocument doc = Doc(R"({"s": "a", "i": -3, "d": 2.5, "b": true, "ss": ["x", "y"],
                             "is": [1, 2], "ds": [1, 0.5], "m": {"": 13, "ml": 3}, "c": "green"})");
  ASSERT_TRUE(doc.RootObject().ok());
  JsonObject o = *doc.RootObject();
  std::string s;
  int64_t i = 0;
  int small = 0;
  double d = 0;
  bool b = false;
  std::vector<std::string> ss;
  std::vector<int64_t> is;
  std::vector<double> ds;
  std::map<std::string, int64_t> m;
  Color c = Color::kRed;
  EXPECT_TRUE(o.Require("s", &s).ok());
  EXPECT_TRUE(o.Require("i", &i).ok());
  EXPECT_TRUE(o.Require("i", &small).ok());
  EXPECT_TRUE(o.Require("d", &d).ok());
  EXPECT_TRUE(o.Require("b", &b).ok());
  EXPECT_TRUE(o.Require("ss", &ss).ok());
  EXPECT_TRUE(o.Require("is", &is).ok());
  EXPECT_TRUE(o.Require("ds", &ds).ok());
  EXPECT_TRUE(o.Require("m", &m).ok());
  EXPECT_TRUE(o.ReadEnum("c", {{"red", Color::kRed}, {"green", Color::kGreen}}, &c).ok());
  EXPECT_EQ(s, "a");
  EXPECT_EQ(i, -3);
  EXPECT_EQ(small, -3);
  EXPECT_EQ(d, 2.5);
  EXPECT_TRUE(b);
  EXPECT_EQ(ss, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(is, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ds, (std::vector<double>{1, 0.5}));
  EXPECT_EQ(m, (std::map<std::string, int64_t>{{"", 13}, {"ml", 3}}));
  EXPECT_EQ(c, Color::kGreen);
}

TEST(JsonReaderTest, AbsentOptionalFieldsKeepTheirDefault) {
  JsonDocument doc = Doc(R"({"a": 1})");
  JsonObject o = *doc.RootObject();
  std::string s = "default";
  std::optional<double> d = 4.0;
  EXPECT_TRUE(o.Read("s", &s).ok());
  EXPECT_TRUE(o.Read("d", &d).ok());
  EXPECT_EQ(s, "default");
  EXPECT_FALSE(d.has_value()) << "an optional reads as absent";
  EXPECT_TRUE(o.Read("a", &d).ok());
  EXPECT_EQ(d, 1.0);
}

TEST(JsonReaderTest, WrongTypeNamesFilePathExpectedAndGot) {
  EXPECT_EQ(EntryError<std::string>(R"({"entries": [{}, {}, {}, {"status": 5}]})", "status"),
            "x.json: entries[0].status: required field is missing");
  const std::string text = R"({"entries": [{"status": "a"}, {"status": 5}]})";
  EXPECT_EQ(EntryError<std::string>(text, "status"),
            "x.json: entries[1].status: expected a string, got 5");
  EXPECT_EQ(EntryError<bool>(R"({"entries": [{"k": "yes"}]})", "k"),
            "x.json: entries[0].k: expected true or false, got \"yes\"");
  EXPECT_EQ(EntryError<int64_t>(R"({"entries": [{"k": 2.5}]})", "k"),
            "x.json: entries[0].k: expected an integer, got 2.5");
  EXPECT_EQ(EntryError<double>(R"({"entries": [{"k": [1]}]})", "k"),
            "x.json: entries[0].k: expected a number, got an array");
  EXPECT_EQ(EntryError<std::vector<std::string>>(R"({"entries": [{"k": ["a", {}]}]})", "k"),
            "x.json: entries[0].k[1]: expected a string, got an object");
  EXPECT_EQ(EntryError<std::string>(R"({"entries": [{"k": null}]})", "k"),
            "x.json: entries[0].k: expected a string, got null");
}

TEST(JsonReaderTest, KeysThatAreNoPlainNamesAreQuotedInPaths) {
  JsonDocument doc = Doc(R"({"m": {"": "x", "ai.onnx.ml": "y"}})");
  std::map<std::string, int64_t> m;
  EXPECT_EQ(doc.RootObject()->Read("m", &m).message(),
            "x.json: m[\"\"]: expected an integer, got \"x\"");
  Status st = doc.RootObject()->RequiredObject("m")->ForEachMember(
      [](const std::string&, const JsonValue& v) { return v.Int().status(); });
  EXPECT_EQ(st.message(), "x.json: m[\"\"]: expected an integer, got \"x\"");
  JsonDocument second = Doc(R"({"m": {"ai.onnx.ml": "y"}})");
  EXPECT_EQ(second.RootObject()->Read("m", &m).message(),
            "x.json: m[\"ai.onnx.ml\"]: expected an integer, got \"y\"");
}

TEST(JsonReaderTest, NullIsAbsentWhereTheDocumentSaysSo) {
  JsonDocument doc = Doc(R"({"k": null})", JsonNull::kIsAbsent);
  JsonObject o = *doc.RootObject();
  std::string s = "kept";
  EXPECT_TRUE(o.Read("k", &s).ok());
  EXPECT_EQ(s, "kept");
  EXPECT_EQ(o.Require("k", &s).message(), "x.json: k: required field is missing");
}

TEST(JsonReaderTest, HugeAndNegativeNumbers) {
  EXPECT_EQ(EntryError<int64_t>(R"({"entries": [{"k": 9223372036854775808}]})", "k"),
            "x.json: entries[0].k: integer 9223372036854775808 is out of range");
  EXPECT_EQ(EntryError<int>(R"({"entries": [{"k": 3000000000}]})", "k"),
            "x.json: entries[0].k: integer 3000000000 is out of range [-2147483648, 2147483647]");
  JsonDocument doc = Doc(R"({"count": -1, "big": 1e300})");
  JsonObject o = *doc.RootObject();
  int64_t count = 0;
  EXPECT_EQ(o.ReadInt("count", 0, INT64_MAX, &count).message(),
            "x.json: count: expected a count >= 0, got -1");
  EXPECT_EQ(o.ReadInt("big", 0, INT64_MAX, &count).message(),
            "x.json: big: expected an integer, got 1e+300");
  // Past double's range the document is refused as a whole.
  auto overflow = JsonDocument::Parse(R"({"k": 1e400})", "x.json");
  ASSERT_FALSE(overflow.ok());
  EXPECT_THAT(overflow.status().message(), HasSubstr("x.json: not valid JSON"));
}

TEST(JsonReaderTest, StringAndArrayLengthsAreBounded) {
  JsonDocument doc = Doc(R"({"s": "abcdef", "a": [1, 2, 3]})");
  JsonObject o = *doc.RootObject();
  auto s = o.Get("s")->String(5);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "x.json: s: a string of 6 bytes (at most 5)");
  auto a = o.RequiredArray("a", 2);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(), "x.json: a: an array of 3 elements (at most 2)");
  EXPECT_TRUE(o.RequiredArray("a", 3).ok());
}

TEST(JsonReaderTest, EnumNamesTheChoices) {
  JsonDocument doc = Doc(R"({"c": "blue"})");
  Color c = Color::kRed;
  Status st = doc.RootObject()->ReadEnum("c", {{"red", Color::kRed}, {"green", Color::kGreen}}, &c);
  EXPECT_EQ(st.message(), "x.json: c: expected \"red\" or \"green\", got \"blue\"");
}

TEST(JsonReaderTest, UnknownKeysAreNamed) {
  JsonDocument doc = Doc(R"({"entries": [{"case": "a", "sute": "x"}]})");
  Status st = doc.RootObject()->ForEachObject("entries", [](const JsonObject& e) {
    return e.OnlyKeys({"case", "suite"});
  });
  EXPECT_EQ(st.message(),
            "x.json: entries[0].sute: unknown field (expected \"case\" or \"suite\")");
}

TEST(JsonReaderTest, ArrayOfObjectsNamesTheElementThatIsNoObject) {
  JsonDocument doc = Doc(R"({"entries": [{}, 7]})");
  Status st =
      doc.RootObject()->ForEachObject("entries", [](const JsonObject&) { return OkStatus(); });
  EXPECT_EQ(st.message(), "x.json: entries[1]: expected an object, got 7");
  JsonDocument top = Doc("[1]");
  EXPECT_EQ(top.RootObject().status().message(), "x.json: expected an object, got an array");
}

TEST(JsonReaderTest, DeepNestingIsRefusedBeforeTheParse) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto doc = JsonDocument::Parse(deep, "deep.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_THAT(doc.status().message(), HasSubstr("deep.json"));
  EXPECT_THAT(doc.status().message(), HasSubstr("nest deeper than 64"));
}

TEST(JsonReaderTest, InvalidUtf8IsRefusedWithItsPlace) {
  auto doc = JsonDocument::Parse("{\"a\": 1,\n \"b\": \"\xC0\xAF\"}", "u.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(doc.status().message(), "u.json: invalid UTF-8 at byte 16 (line 2)");
  EXPECT_TRUE(JsonDocument::Parse("{\"b\": \"\xC3\xA9\"}", "u.json").ok());
}

TEST(JsonReaderTest, NotJsonIsDataLossNamingTheSource) {
  auto doc = JsonDocument::Parse("{\"a\": ", "n.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(doc.status().message(), HasSubstr("n.json: not valid JSON"));
}

TEST(JsonReaderTest, LongStringsAreQuotedShortInErrors) {
  JsonDocument doc = Doc("{\"k\": \"" + std::string(100, 'a') + "\"}");
  Status st = doc.root().Object()->Get("k")->TypeError("a number");
  EXPECT_EQ(st.message(), "x.json: k: expected a number, got \"" + std::string(40, 'a') + "\"...");
}

TEST(JsonReaderTest, ReadFileGoesThroughTheBoundedOpen) {
  char dir_template[] = "/tmp/json_reader_test_XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string good = dir + "/good.json";
  ASSERT_TRUE(WriteFileAtomically(good, R"({"name": "n"})").ok());
  auto doc = JsonDocument::ReadFile(good, "suite file");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  std::string name;
  EXPECT_TRUE(doc->RootObject()->Require("name", &name).ok());
  EXPECT_EQ(name, "n");
  auto missing = JsonDocument::ReadFile(dir + "/none.json", "suite file");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("none.json"));
  const std::string fifo = dir + "/fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto not_regular = JsonDocument::ReadFile(fifo, "suite file");
  ASSERT_FALSE(not_regular.ok());
  EXPECT_THAT(not_regular.status().message(), HasSubstr("not a suite file"));
  std::remove(fifo.c_str());
  std::remove(good.c_str());
  ::rmdir(dir.c_str());
}

TEST(JsonReaderTest, ViewsSurviveAMoveOfTheDocument) {
  JsonDocument first = Doc(R"({"a": {"b": 1}})");
  auto inner = first.RootObject()->RequiredObject("a");
  ASSERT_TRUE(inner.ok());
  JsonDocument moved = std::move(first);
  int64_t b = 0;
  EXPECT_TRUE(inner->Require("b", &b).ok());
  EXPECT_EQ(b, 1);
  EXPECT_EQ(inner->Require("c", &b).message(), "x.json: a.c: required field is missing");
}

TEST(JsonReaderTest, WrapsAValueParsedElsewhere) {
  const nlohmann::json reply = {{"code", 5}};
  JsonValue v = JsonValue::Of(reply, "adapter 'x': hello");
  std::string code;
  EXPECT_EQ(v.Object()->Read("code", &code).message(),
            "adapter 'x': hello: code: expected a string, got 5");
}

}  // namespace
}  // namespace onnxgate
