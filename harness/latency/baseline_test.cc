// Tests of baseline files and the machine fingerprint: round trip, errors that name the field,
// refusal of other fingerprints, merging, atomic writing.
#include "harness/latency/baseline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "runtime/base/atomic_file.h"
#include "runtime/base/utc_time.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

MachineFingerprint Xeon() { return {"Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz", 2, "Release"}; }

BaselineEntry Entry(const std::string& model, int64_t threads, double base_ms) {
  BaselineEntry e;
  e.model = model;
  e.threads = threads;
  e.model_sha256 = std::string(64, 'a');
  e.iterations_per_repetition = 7;
  for (int i = 0; i < 9; ++i) e.samples_ms.push_back(base_ms + 0.01 * i);
  e.median_ms = base_ms + 0.04;
  e.min_ms = base_ms;
  e.p90_ms = base_ms + 0.072;
  e.p99_ms = base_ms + 0.0792;
  e.mean_ms = base_ms + 0.04;
  e.cv = 0.01;
  e.load_ms = 12.5;
  e.first_run_ms = 3.25;
  e.recorded = "2024-05-01T12:00:00Z";
  return e;
}

BaselineFile Sample() {
  BaselineFile f;
  f.fingerprint = Xeon();
  f.ep = "ref";
  f.clock = "wall";
  f.tool_version = "0.1.0";
  f.updated = "2024-05-01T12:00:00Z";
  f.entries = {Entry("resnet18", 1, 900.0), Entry("mlp", 4, 1.0), Entry("mlp", 1, 2.0)};
  return f;
}

TEST(FingerprintTest, IdIsAReadableFolderName) {
  EXPECT_EQ(Xeon().Id(), "intel-r-xeon-r-cpu-e5-2690-v4-2-60ghz_2c_release");
  EXPECT_EQ(Xeon().Describe(),
            "Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz, 2 logical cores, Release build");
  MachineFingerprint other = Xeon();
  other.logical_cores = 4;
  EXPECT_NE(other, Xeon());
  EXPECT_NE(other.Id(), Xeon().Id());
}

TEST(FingerprintTest, CurrentMachineIsDescribed) {
  const MachineFingerprint fp = CurrentMachineFingerprint();
  EXPECT_FALSE(fp.cpu_model.empty());
  EXPECT_GT(fp.logical_cores, 0);
  EXPECT_EQ(fp.build_type, CompiledBuildType());
  EXPECT_EQ(fp.Id().find('/'), std::string::npos);
  EXPECT_EQ(fp, CurrentMachineFingerprint());
}

TEST(BaselineTest, RoundTripSortsEntries) {
  const std::string text = RenderBaselineJson(Sample());
  auto parsed = ParseBaselineJson(text, "b.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->fingerprint, Xeon());
  EXPECT_EQ(parsed->ep, "ref");
  EXPECT_EQ(parsed->clock, "wall");
  EXPECT_EQ(parsed->tool_version, "0.1.0");
  ASSERT_EQ(parsed->entries.size(), 3u);
  EXPECT_EQ(parsed->entries[0].model, "mlp");
  EXPECT_EQ(parsed->entries[0].threads, 1);
  EXPECT_EQ(parsed->entries[1].threads, 4);
  EXPECT_EQ(parsed->entries[2].model, "resnet18");
  const BaselineEntry* e = parsed->Find("mlp", 1, "");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->samples_ms, Entry("mlp", 1, 2.0).samples_ms);
  EXPECT_EQ(e->iterations_per_repetition, 7);
  EXPECT_EQ(e->model_sha256, std::string(64, 'a'));
  EXPECT_EQ(e->load_ms, 12.5);
  EXPECT_EQ(e->first_run_ms, 3.25);
  EXPECT_EQ(parsed->Find("mlp", 2, ""), nullptr);
  EXPECT_EQ(parsed->Find("mlp", 1, "batch=4"), nullptr);
  // Rendering the parsed file gives the same text: the format is stable.
  EXPECT_EQ(RenderBaselineJson(*parsed), text);
  EXPECT_THAT(text, HasSubstr("\"id\": \"intel-r-xeon-r-cpu-e5-2690-v4-2-60ghz_2c_release\""));
}

// Version 2 keys an entry by model name, threads and shapes; the hash sits beside the key.
TEST(BaselineTest, EntriesAreKeyedByNameThreadsAndShapes) {
  BaselineFile file = Sample();
  BaselineEntry wide = Entry("mlp", 1, 8.0);
  wide.shapes = "batch=4,seq=128";
  wide.model_sha256 = std::string(64, 'b');
  file.entries.push_back(wide);
  const std::string text = RenderBaselineJson(file);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["format_version"], 2);
  EXPECT_EQ(j["entries"][0]["shapes"], "");
  auto parsed = ParseBaselineJson(text, "b.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->entries.size(), 4u);
  const BaselineEntry* found = parsed->Find("mlp", 1, "batch=4,seq=128");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->min_ms, 8.0);
  EXPECT_EQ(found->model_sha256, std::string(64, 'b'));
  EXPECT_EQ(parsed->Find("mlp", 1, "")->min_ms, 2.0);
  EXPECT_EQ(parsed->EntriesOf("mlp").size(), 3u);
  EXPECT_TRUE(parsed->EntriesOf("bert").empty());
  EXPECT_EQ(RenderBaselineJson(*parsed), text);

  // Merging replaces the entry of the same configuration only.
  BaselineEntry again = wide;
  again.min_ms = 9.0;
  MergeBaselineEntries(&file, {again});
  EXPECT_EQ(file.entries.size(), 4u);
  EXPECT_EQ(file.Find("mlp", 1, "batch=4,seq=128")->min_ms, 9.0);
  EXPECT_EQ(file.Find("mlp", 1, "")->min_ms, 2.0);

  // Two entries of one configuration are refused, naming it.
  nlohmann::json twice = j;
  twice["entries"].push_back(twice["entries"][1]);
  EXPECT_THAT(ParseBaselineJson(twice.dump(), "b.json").status().message(),
              HasSubstr("a second entry for model 'mlp' at 1 thread(s), shapes batch=4,seq=128"));
}

// A file written before shapes keyed the entries: every entry is of no shapes, and writing it
// again makes it version 2.
TEST(BaselineTest, AVersionOneFileIsReadWithoutShapes) {
  nlohmann::json j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["format_version"] = 1;
  for (auto& e : j["entries"]) e.erase("shapes");
  j["entries"][0]["shapes"] = "batch=4";  // not a field of version 1: ignored
  auto parsed = ParseBaselineJson(j.dump(), "v1.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->entries.size(), 3u);
  for (const BaselineEntry& e : parsed->entries) EXPECT_EQ(e.shapes, "") << e.model;
  ASSERT_NE(parsed->Find("mlp", 4, ""), nullptr);
  EXPECT_EQ(parsed->Find("mlp", 4, "")->samples_ms, Entry("mlp", 4, 1.0).samples_ms);
  EXPECT_EQ(nlohmann::json::parse(RenderBaselineJson(*parsed))["format_version"], 2);
}

TEST(BaselineTest, ErrorsNameTheFileAndField) {
  auto bad = ParseBaselineJson("{not json", "b.json");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(bad.status().message(), HasSubstr("b.json: not valid JSON"));

  nlohmann::json j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["format"] = "something-else";
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("format: expected \"onnxgate-latency-baseline\""));

  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["format_version"] = 3;
  EXPECT_EQ(ParseBaselineJson(j.dump(), "b.json").status().code(), StatusCode::kUnimplemented);

  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["entries"][1]["samples_ms"][4] = "fast";
  auto typed = ParseBaselineJson(j.dump(), "b.json");
  EXPECT_EQ(typed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(typed.status().message(),
              HasSubstr("b.json: entries[1].samples_ms[4]: expected a number, got \"fast\""));

  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["entries"][0].erase("samples_ms");
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("entries[0].samples_ms: required field is missing"));

  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["entries"][0]["samples_ms"] = nlohmann::json::array();
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("entries[0].samples_ms: must hold between 3 and 100000 samples, got 0"));

  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["fingerprint"].erase("cpu_model");
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("fingerprint.cpu_model: required field is missing"));
}

// Values that would switch regression detection off (or make everything a regression) are
// refused when the file is read, never used.
TEST(BaselineTest, NonsenseValuesAreRefused) {
  for (double bad : {-1.0, 0.0, 1e308}) {
    nlohmann::json j = nlohmann::json::parse(RenderBaselineJson(Sample()));
    j["entries"][1]["samples_ms"][2] = bad;
    EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
                HasSubstr("b.json: entries[1].samples_ms[2]: a time must be in (0, 3.6e+06] ms"))
        << bad;
  }
  nlohmann::json j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["entries"].push_back(j["entries"][0]);
  EXPECT_THAT(
      ParseBaselineJson(j.dump(), "b.json").status().message(),
      HasSubstr("a second entry for model '" + j["entries"][0]["model"].get<std::string>()));
  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["entries"][0]["threads"] = 0;
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("entries[0].threads: must be between 1 and 4096, got 0"));
  j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  j["entries"][0]["samples_ms"] = {1.0, 1.0};
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("must hold between 3 and 100000 samples, got 2"));
}

TEST(BaselineTest, OtherFingerprintIsRefusedNamingBoth) {
  const BaselineFile file = Sample();
  EXPECT_TRUE(CheckBaselineApplies(file, "b.json", Xeon(), "onnxgate", "ref", "wall").ok());

  MachineFingerprint here = Xeon();
  here.cpu_model = "AMD EPYC 7B13 64-Core Processor";
  Status st = CheckBaselineApplies(file, "b.json", here, "onnxgate", "ref", "wall");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("refusing to compare with baseline b.json"));
  EXPECT_THAT(st.message(), HasSubstr(Xeon().Id()));
  EXPECT_THAT(st.message(), HasSubstr(here.Id()));

  here = Xeon();
  here.build_type = "Debug";
  EXPECT_THAT(CheckBaselineApplies(file, "b.json", here, "onnxgate", "ref", "wall").message(),
              HasSubstr("debug"));
  EXPECT_THAT(CheckBaselineApplies(file, "b.json", Xeon(), "onnxgate", "dnnl", "wall").message(),
              HasSubstr("holds EP 'ref'"));
  EXPECT_THAT(CheckBaselineApplies(file, "b.json", Xeon(), "onnxgate", "ref", "cpu").message(),
              HasSubstr("wall time"));
  EXPECT_THAT(CheckBaselineApplies(file, "b.json", Xeon(), "ort", "ref", "wall").message(),
              HasSubstr("holds runtime 'onnxgate', the run measures runtime 'ort'"));
}

TEST(BaselineTest, AFileWithoutARuntimeIsTheBuiltinOnes) {
  nlohmann::json j = nlohmann::json::parse(RenderBaselineJson(Sample()));
  EXPECT_EQ(j["runtime"], "onnxgate");
  j.erase("runtime");
  StatusOr<BaselineFile> back = ParseBaselineJson(j.dump(), "b.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->runtime, "onnxgate");
}

TEST(BaselineTest, TheOptimizationLevelIsRecordedAndMustMatch) {
  BaselineFile file = Sample();
  nlohmann::json j = nlohmann::json::parse(RenderBaselineJson(file));
  EXPECT_EQ(j["optimization_level"], 0);
  j.erase("optimization_level");  // files from before the level was recorded: level 0
  StatusOr<BaselineFile> back = ParseBaselineJson(j.dump(), "b.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->optimization_level, 0);

  file.optimization_level = 2;
  back = ParseBaselineJson(RenderBaselineJson(file), "b.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->optimization_level, 2);
  EXPECT_TRUE(CheckBaselineApplies(file, "b.json", Xeon(), "onnxgate", "ref", "wall", 2).ok());
  EXPECT_THAT(CheckBaselineApplies(file, "b.json", Xeon(), "onnxgate", "ref", "wall", 0).message(),
              HasSubstr("measured at graph optimization level 2, the run loads models at 0"));

  j["optimization_level"] = 5;
  EXPECT_THAT(ParseBaselineJson(j.dump(), "b.json").status().message(),
              HasSubstr("optimization_level must be 0 to 2, got 5"));
}

TEST(BaselineTest, MergeReplacesMeasuredAndKeepsTheRest) {
  BaselineFile file = Sample();
  MergeBaselineEntries(&file, {Entry("mlp", 1, 5.0), Entry("transformer_encoder", 1, 50.0)});
  ASSERT_EQ(file.entries.size(), 4u);
  EXPECT_EQ(file.Find("mlp", 1, "")->min_ms, 5.0);
  EXPECT_EQ(file.Find("mlp", 4, "")->min_ms, 1.0);
  EXPECT_EQ(file.Find("resnet18", 1, "")->min_ms, 900.0);
  EXPECT_EQ(file.entries.back().model, "transformer_encoder");
}

TEST(BaselineTest, WriteAndReadBackAtThePathOfTheFingerprint) {
  std::string templ = (fs::temp_directory_path() / "baseline_test_XXXXXX").string();
  ASSERT_NE(::mkdtemp(templ.data()), nullptr);
  const std::string path = BaselinePath(templ, Xeon(), "ref").value();
  EXPECT_EQ(path, templ + "/intel-r-xeon-r-cpu-e5-2690-v4-2-60ghz_2c_release/ref.json");
  EXPECT_EQ(ReadBaseline(path).status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(WriteBaseline(Sample(), path).ok());
  auto read = ReadBaseline(path);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->entries.size(), 3u);
  // Only the file itself is left in the folder: no temporary names.
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(path).parent_path())) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1);
  fs::remove_all(templ);
}

// A runtime names its EPs: a name that would climb out of the baselines folder is refused where
// the path is built, so `baseline update` never writes outside it.
TEST(BaselineTest, PathRefusesAnEpNameThatIsNotASafeFileName) {
  for (const std::string ep : {"../../../../pwned-baseline", "a/b", ".hidden", "", "-flag"}) {
    StatusOr<std::string> path = BaselinePath("/tmp/baselines", Xeon(), ep);
    ASSERT_FALSE(path.ok()) << ep;
    EXPECT_EQ(path.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(path.status().message(), HasSubstr("EP name '" + ep + "'"));
    EXPECT_THAT(path.status().message(), HasSubstr("/tmp/baselines"));
  }
}

class BaselineUpdateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "baseline_update_XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

// Updates of one file that overlap (each read before the other wrote) keep every entry.
TEST_F(BaselineUpdateTest, ConcurrentUpdatesOfOneFileKeepEveryEntry) {
  const std::string path = BaselinePath(dir_, Xeon(), "ref").value();
  BaselineFile header = Sample();
  header.entries.clear();
  constexpr int kWriters = 8;
  std::vector<std::thread> writers;
  std::vector<Status> results(kWriters);
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([&, i] {
      results[i] =
          UpdateBaselineFile(path, header, {Entry("model" + std::to_string(i), 1, 1.0)}).status();
    });
  }
  for (std::thread& t : writers) t.join();
  for (const Status& st : results) EXPECT_TRUE(st.ok()) << st.ToString();
  auto read = ReadBaseline(path);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->entries.size(), static_cast<size_t>(kWriters));
  EXPECT_EQ(read->updated, header.updated);
}

// The file is vetted again under the lock: one replaced by another machine's is not merged into.
TEST_F(BaselineUpdateTest, RefusesAFileThatNoLongerAppliesAndLeavesIt) {
  const std::string path = BaselinePath(dir_, Xeon(), "ref").value();
  BaselineFile foreign = Sample();
  foreign.fingerprint.cpu_model = "some-other-cpu-9000";
  ASSERT_TRUE(WriteBaseline(foreign, path).ok());
  const std::string before = ReadFile(path).value();
  auto updated = UpdateBaselineFile(path, Sample(), {Entry("mlp", 2, 1.0)});
  ASSERT_FALSE(updated.ok());
  EXPECT_THAT(updated.status().message(), HasSubstr("some-other-cpu-9000"));
  EXPECT_EQ(ReadFile(path).value(), before);

  // A missing file starts from the header, its entries and the fresh ones together.
  fs::remove(path);
  updated = UpdateBaselineFile(path, Sample(), {Entry("mlp", 2, 1.0)});
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(updated->entries.size(), 4u);
  EXPECT_EQ(ReadBaseline(path)->entries.size(), 4u);
}

TEST(BaselineTest, UtcTimestampShape) {
  const std::string now = UtcNowIso8601();
  ASSERT_EQ(now.size(), 20u);
  EXPECT_EQ(now[4], '-');
  EXPECT_EQ(now[10], 'T');
  EXPECT_EQ(now.back(), 'Z');
}

}  // namespace
}  // namespace onnxgate
