// End-to-end tests of `bench` and `baseline update` on the small zoo: no baseline is not a
// failure, a baseline is written where the fingerprint says, a slower run fails with exit 1 and
// shows up in every report, a foreign baseline is refused.
#include "harness/latency/bench_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "harness/harness_test_util.h"
#include "harness/latency/baseline.h"
#include "harness/latency/bench_models_testing.h"
#include "harness/latency/extra_work.h"
#include "harness/zoo/zoo.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
namespace fs = std::filesystem;

class BenchCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "bench_command_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    ASSERT_TRUE(zoo::GenerateZoo(dir_ + "/models", zoo::SmallZooModels(), {"mlp"}).ok());
    runtime_ = CreateBuiltinRuntime(BuiltinAndTestProviderEntries());  // ref, test-crash, ...
  }
  void TearDown() override { fs::remove_all(dir_); }

  BenchCommandOptions Options() {
    BenchCommandOptions o;
    o.root = dir_;  // baselines in <dir>/golden/baselines
    o.models_dir = dir_ + "/models";
    o.settings.repetitions = 9;
    o.settings.min_time_s = 0.01;
    o.settings.warmup_s = 0.0;
    o.settings.clock = BenchClock::kCpu;  // steadier on a shared test machine
    return o;
  }

  // Runs `command` with stdout and stderr captured into out_ and err_.
  int Capture(int (*command)(const BenchCommandOptions&, const RuntimeUnderTest&),
              BenchCommandOptions o) {
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    o.out = out;
    o.err = err;
    const int rc = command(o, *runtime_);
    out_ = Slurp(out);
    err_ = Slurp(err);
    return rc;
  }

  static std::string Slurp(std::FILE* f) {
    std::fflush(f);
    std::rewind(f);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    return text;
  }

  std::string BaselineFilePath() {
    return BaselinePath(dir_ + "/golden/baselines", CurrentMachineFingerprint(), "ref").value();
  }

  // Rewrites the baseline's samples scaled by `factor` (0.5 makes the current run look twice
  // as slow).
  void ScaleBaseline(double factor) {
    auto file = ReadBaseline(BaselineFilePath());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    for (BaselineEntry& e : file->entries) {
      for (double& s : e.samples_ms) s *= factor;
    }
    ASSERT_TRUE(WriteBaseline(*file, BaselineFilePath()).ok());
  }

  std::string dir_, out_, err_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

TEST_F(BenchCommandTest, NoBaselineIsReportedNotFailed) {
  BenchCommandOptions o = Options();
  o.compare = true;
  o.json_path = dir_ + "/run.json";
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << err_;
  EXPECT_THAT(out_, HasSubstr("[1/1] mlp on ref, 1 thread:"));
  EXPECT_THAT(out_, HasSubstr("no latency baseline for this machine on ref"));
  EXPECT_THAT(out_, HasSubstr("0 latency regression(s)"));
  auto run = ReadRunJson(dir_ + "/run.json");
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->latency.size(), 1u);
  EXPECT_EQ(run->latency[0].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_EQ(run->latency[0].repetitions, 9);
  EXPECT_TRUE(run->latency[0].load_ms.has_value());

  // The same file is a Google Benchmark JSON output too: 9 repetitions and 4 aggregates.
  auto text = ReadFile(dir_ + "/run.json");
  ASSERT_TRUE(text.ok());
  const nlohmann::json j = nlohmann::json::parse(*text);
  EXPECT_EQ(j["schema"], "onnxgate-run");
  EXPECT_EQ(j["context"]["json_schema_version"], 1);
  ASSERT_EQ(j["benchmarks"].size(), 13u);
  EXPECT_EQ(j["benchmarks"][0]["name"], "mlp/ref/intra_op_threads:1");
  EXPECT_EQ(j["benchmarks"][0]["run_type"], "iteration");
  EXPECT_EQ(j["benchmarks"][8]["repetition_index"], 8);
  EXPECT_EQ(j["benchmarks"][10]["aggregate_name"], "median");
  EXPECT_DOUBLE_EQ(j["benchmarks"][10]["cpu_time"].get<double>(), run->latency[0].median_ms);
}

TEST_F(BenchCommandTest, UpdateThenRegressionThenImprovement) {
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, Options()), 0) << err_;
  EXPECT_THAT(out_, HasSubstr("wrote 1 new entry to " + BaselineFilePath()));
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_EQ(file->entries.size(), 1u);
  EXPECT_EQ(file->entries[0].samples_ms.size(), 9u);
  EXPECT_EQ(file->clock, "cpu");

  // The baseline claims the model ran four times as fast: the run now is a regression (with a
  // margin for a loaded machine: the run must only be slower than 0.375 of the baseline's time).
  ScaleBaseline(0.25);
  BenchCommandOptions o = Options();
  o.compare = true;
  o.json_path = dir_ + "/run.json";
  o.junit_path = dir_ + "/run.xml";
  o.markdown_path = dir_ + "/run.md";
  EXPECT_EQ(Capture(RunBenchCommand, o), 1) << out_ << err_;
  EXPECT_THAT(out_, HasSubstr("regression mlp[ref,1t]"));
  EXPECT_THAT(out_, HasSubstr("1 latency regression(s)"));
  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->latency[0].verdict, LatencyVerdict::kRegression);
  EXPECT_GT(*run->latency[0].change_ratio, 0.5);
  EXPECT_LT(*run->latency[0].p_value, 0.01);
  auto xml = ReadFile(o.junit_path);
  ASSERT_TRUE(xml.ok());
  EXPECT_THAT(*xml, HasSubstr("<testsuite name=\"latency\""));
  EXPECT_THAT(*xml, HasSubstr("<failure"));
  auto md = ReadFile(o.markdown_path);
  ASSERT_TRUE(md.ok());
  EXPECT_THAT(*md, HasSubstr("- **regression** `mlp[ref,1t]`"));

  // Four times slower in the baseline's words (0.25 * 16 = 4): now an improvement, exit 0.
  ScaleBaseline(16.0);
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << out_ << err_;
  EXPECT_THAT(out_, HasSubstr("improvement mlp[ref,1t]"));

  // Updating again replaces the entry rather than adding one.
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, Options()), 0) << err_;
  EXPECT_EQ(ReadBaseline(BaselineFilePath())->entries.size(), 1u);
}

TEST_F(BenchCommandTest, RoundsPoolTheirSamples) {
  BenchCommandOptions o = Options();
  o.rounds = 3;
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, o), 0) << err_;
  EXPECT_THAT(out_, HasSubstr("[1/3] round 1/3: mlp on ref, 1 thread:"));
  EXPECT_THAT(out_, HasSubstr("[3/3] round 3/3: mlp on ref, 1 thread:"));
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_EQ(file->entries.size(), 1u);
  EXPECT_EQ(file->entries[0].samples_ms.size(), 27u);

  o.rounds = 0;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("--rounds must be between 1 and 100, got 0"));
}

TEST_F(BenchCommandTest, ForeignFingerprintIsRefusedBeforeMeasuring) {
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, Options()), 0) << err_;
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok());
  file->fingerprint.cpu_model = "Some Other CPU 9000";
  const std::string foreign = dir_ + "/foreign.json";
  ASSERT_TRUE(WriteBaseline(*file, foreign).ok());
  BenchCommandOptions o = Options();
  o.compare = true;
  o.baseline_file = foreign;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("refusing to compare with baseline " + foreign));
  EXPECT_THAT(err_, HasSubstr("some-other-cpu-9000"));
  EXPECT_THAT(err_, HasSubstr(CurrentMachineFingerprint().Id()));
  EXPECT_THAT(out_, Not(HasSubstr("[1/1]")));  // nothing was measured
}

// ref runs every op on the calling thread: "--threads 2" would measure one thread under a
// two-thread label, so it is refused before anything is measured, for bench and baseline update.
TEST_F(BenchCommandTest, ThreadsAProviderCannotUseAreRefusedBeforeMeasuring) {
  BenchCommandOptions o = Options();
  o.threads = {1, 2};
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("--threads 2: EP 'ref' of runtime 'onnxgate' runs every op on the "
                              "calling thread"));
  EXPECT_THAT(out_, Not(HasSubstr("[1/2]")));
  EXPECT_EQ(Capture(RunBaselineUpdateCommand, o), 2);
  EXPECT_FALSE(fs::exists(BaselineFilePath()));

  // The runtime refuses such a load too, whoever asks.
  LoadOptions load;
  load.intra_op_threads = 2;
  auto loaded = runtime_->Load(dir_ + "/models/mlp.onnx", load);
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(loaded.status().message(), HasSubstr("provider 'ref' cannot use 2 intra-op threads"));
  auto most = runtime_->MaxIntraOpThreads("ref");
  ASSERT_TRUE(most.ok());
  EXPECT_EQ(*most, 1);
}

// A runtime whose provider is named like a path (a plugin or an adapter may report any name):
// `baseline update` refuses it where the file name is built, before measuring, and writes
// nothing inside the baselines folder or outside it.
TEST_F(BenchCommandTest, AnEpNamedLikeAPathIsRefusedAndNothingIsWritten) {
  const std::string name = "../../../../pwned-baseline";
  std::vector<ProviderEntry> entries = BuiltinProviderEntries();
  entries.front().name = name;
  runtime_ = CreateBuiltinRuntime(entries);
  BenchCommandOptions o = Options();
  o.eps = {name};
  EXPECT_EQ(Capture(RunBaselineUpdateCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("EP name '" + name + "'"));
  EXPECT_THAT(out_, Not(HasSubstr("[1/1]")));
  EXPECT_FALSE(fs::exists(dir_ + "/golden/baselines"));
  EXPECT_FALSE(fs::exists(fs::path(dir_).parent_path() / "pwned-baseline.json"));
}

// A baseline measured at one graph optimization level is compared only at that level.
TEST_F(BenchCommandTest, BaselinesRecordTheOptimizationLevel) {
  BenchCommandOptions o = Options();
  o.settings.optimization_level = 2;
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, o), 0) << err_;
  EXPECT_THAT(out_, HasSubstr("models loaded at graph optimization level 2"));
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->optimization_level, 2);
  o.compare = true;
  const int same_level = Capture(RunBenchCommand, o);  // 1 would be noise, never a refusal
  EXPECT_TRUE(same_level == 0 || same_level == 1) << err_;
  EXPECT_THAT(err_, Not(HasSubstr("refusing")));
  o.settings.optimization_level = 0;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("measured at graph optimization level 2, the run loads models at 0"));
  o.settings.optimization_level = 3;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("--optimization-level must be 0 to 2, got 3"));
}

TEST_F(BenchCommandTest, BaselinesRecordTheRuntime) {
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, Options()), 0) << err_;
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->runtime, "onnxgate");
  file->runtime = "another-runtime";
  ASSERT_TRUE(WriteBaseline(*file, BaselineFilePath()).ok());
  BenchCommandOptions o = Options();
  o.compare = true;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("holds runtime 'another-runtime'"));
}

// Each measurement runs in a worker process: a kernel that crashes or hangs ends the bench with
// a message naming what happened, instead of killing or hanging it.
TEST_F(BenchCommandTest, CrashingAndHangingKernelsAreContained) {
  const std::string models = dir_ + "/relu_models";
  // A Relu-only model, which the test providers (test-crash, test-hang) take whole.
  ASSERT_TRUE(WriteFileAtomically(models + "/relu.onnx", OneNodeModelBytes("Relu", 4)).ok());
  BenchCommandOptions o = Options();
  o.models_dir = models;
  o.eps = {"test-crash"};
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("on test-crash with 1 thread(s): the measurement crashed: killed by "
                              "SIGSEGV"));

  o.eps = {"test-hang"};
  o.timeout_s = 2;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("on test-hang with 1 thread(s): the measurement timed out after"));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60);

  o.timeout_s = std::nan("");
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("--timeout must be a number of seconds in (0, 86400]"));
}

// A model file other than the one the entry measured is compared with the entry of its name.
TEST_F(BenchCommandTest, ChangedModelIsComparedByName) {
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, Options()), 0) << err_;
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok());
  file->entries[0].model_sha256 = "0123abcd" + std::string(56, '0');
  ASSERT_TRUE(WriteBaseline(*file, BaselineFilePath()).ok());
  BenchCommandOptions o = Options();
  o.compare = true;
  o.json_path = dir_ + "/run.json";
  const int rc = Capture(RunBenchCommand, o);
  auto run = ReadRunJson(dir_ + "/run.json");
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->latency.size(), 1u);
  const LatencyRecord& r = run->latency[0];
  EXPECT_NE(r.verdict, LatencyVerdict::kNoBaseline);
  EXPECT_TRUE(r.baseline_median_ms.has_value());
  EXPECT_EQ(rc, r.verdict == LatencyVerdict::kRegression ? 1 : 0) << out_;
  EXPECT_THAT(r.message, StartsWith("model changed (hash 0123abcd -> "));
  EXPECT_THAT(out_, HasSubstr("model changed (hash 0123abcd -> "));
}

// Another thread count than the baseline's is a new configuration: reported, and a failure
// only with fail_on_new, which needs compare.
TEST_F(BenchCommandTest, ANewConfigurationFailsOnlyWhenAskedTo) {
  ASSERT_EQ(Capture(RunBaselineUpdateCommand, Options()), 0) << err_;
  auto file = ReadBaseline(BaselineFilePath());
  ASSERT_TRUE(file.ok());
  file->entries[0].threads = 2;
  ASSERT_TRUE(WriteBaseline(*file, BaselineFilePath()).ok());
  BenchCommandOptions o = Options();
  o.compare = true;
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << err_;
  EXPECT_THAT(out_, HasSubstr("no-baseline mlp[ref,1t]: new configuration: the baseline "));
  EXPECT_THAT(out_, HasSubstr("has no entry for mlp at 1 thread(s) (it holds 2 thread(s))"));
  EXPECT_THAT(out_, HasSubstr("1 new configuration(s), never measured on this machine\n"));
  o.fail_on_new = true;
  EXPECT_EQ(Capture(RunBenchCommand, o), 1) << err_;
  EXPECT_THAT(out_, HasSubstr("1 new configuration(s), never measured on this machine "
                              "(--fail-on-new: a failure)"));
  o.compare = false;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("--fail-on-new needs --compare"));
}

TEST_F(BenchCommandTest, UsageErrors) {
  BenchCommandOptions o = Options();
  o.eps = {"ref", "other"};
  o.baseline_file = dir_ + "/x.json";
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("give exactly one --ep"));

  o = Options();
  o.settings.extra_work_percent = 25;
  EXPECT_EQ(Capture(RunBaselineUpdateCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("test-only"));

  o = Options();
  o.model_globs = {"vgg*"};
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("matches the --model patterns"));

  o = Options();
  o.compare = true;
  o.thresholds_file = dir_ + "/thresholds.json";
  ASSERT_TRUE(WriteFileAtomically(o.thresholds_file, "{\"format\": \"nope\"}").ok());
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("thresholds.json: format"));
}

// The built-in runtime under another name and version, with `extra_units` of busy work added to
// every run: a candidate that got slower, for bench --against.
class SlowerRuntime : public RuntimeUnderTest {
 public:
  SlowerRuntime(const RuntimeUnderTest& inner, int64_t extra_units)
      : inner_(inner), extra_units_(extra_units) {}
  std::string name() const override { return "candidate"; }
  std::string version() const override { return "2.0"; }
  AcceptedVersions accepted_versions() const override { return inner_.accepted_versions(); }
  std::vector<std::string> providers() const override { return inner_.providers(); }
  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& path,
                                              const LoadOptions& options) const override {
    ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model, inner_.Load(path, options));
    return std::unique_ptr<LoadedModel>(new SlowerModel(std::move(model), extra_units_));
  }
  StatusOr<std::vector<OpClaim>> Claims(const std::string& p) const override {
    return inner_.Claims(p);
  }
  StatusOr<int> MaxIntraOpThreads(const std::string& p) const override {
    return inner_.MaxIntraOpThreads(p);
  }

 private:
  class SlowerModel : public LoadedModel {
   public:
    SlowerModel(std::unique_ptr<LoadedModel> inner, int64_t units)
        : inner_(std::move(inner)), units_(units) {}
    std::vector<ValueInfo> inputs() const override { return inner_->inputs(); }
    std::vector<ValueInfo> outputs() const override { return inner_->outputs(); }
    std::map<std::string, std::string> metadata() const override { return inner_->metadata(); }
    std::vector<NodePlacement> placements() const override { return inner_->placements(); }
    StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const override {
      RunBusyWork(units_);
      return inner_->Run(feeds);
    }

   private:
    std::unique_ptr<LoadedModel> inner_;
    int64_t units_;
  };
  const RuntimeUnderTest& inner_;
  int64_t extra_units_;
};

TEST_F(BenchCommandTest, AgainstMeasuresBothInAlternatingTurnsAndJudgesTheCandidate) {
  // Two milliseconds of CPU added to every run of mlp (well under a millisecond here): the
  // candidate is several times slower in every sample.
  SlowerRuntime slower(*runtime_, static_cast<int64_t>(2 * BusyWorkUnitsPerMs()));
  BenchCommandOptions o = Options();
  o.rounds = 2;
  o.json_path = dir_ + "/against.json";
  auto against = [&](const RuntimeUnderTest& candidate, const RuntimeUnderTest& reference) {
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    o.out = out;
    o.err = err;
    const int rc = RunBenchAgainstCommand(o, candidate, reference);
    out_ = Slurp(out);
    err_ = Slurp(err);
    return rc;
  };
  EXPECT_EQ(against(slower, *runtime_), 1) << out_ << err_;
  // Both are measured in one worker per round; round 1 starts with the candidate, round 2 with
  // the reference.
  EXPECT_THAT(out_, HasSubstr("[1/2] round 1/2: mlp on candidate/ref beside onnxgate/ref"));
  EXPECT_THAT(out_, HasSubstr("[2/2] round 2/2: mlp on onnxgate/ref beside candidate/ref"));
  EXPECT_THAT(out_, HasSubstr("vs onnxgate/ref"));
  EXPECT_THAT(out_, HasSubstr("18 of 18 untied pairs slower"));
  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->runtimes.size(), 2u);
  EXPECT_EQ(run->runtimes[0].label, "candidate");
  EXPECT_EQ(run->runtimes[1].label, "onnxgate");
  ASSERT_EQ(run->latency.size(), 1u);
  const LatencyRecord& r = run->latency[0];
  EXPECT_EQ(r.runtime, "candidate");
  EXPECT_EQ(r.verdict, LatencyVerdict::kRegression) << r.message;
  EXPECT_EQ(r.repetitions, 18);  // 9 per round, pooled
  ASSERT_TRUE(r.baseline_median_ms.has_value());
  EXPECT_LT(*r.baseline_median_ms, r.median_ms);

  // The other way round the candidate is the faster one: an improvement, exit 0.
  EXPECT_EQ(against(*runtime_, slower), 0) << out_ << err_;
  run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->latency[0].verdict, LatencyVerdict::kImprovement) << run->latency[0].message;

  // A stored baseline is not what --against judges by.
  o.compare = true;
  EXPECT_EQ(against(slower, *runtime_), 2);
  EXPECT_THAT(err_, HasSubstr("takes no stored baseline"));
  o.compare = false;
  o.fail_on_new = true;
  EXPECT_EQ(against(slower, *runtime_), 2);
  EXPECT_THAT(err_, HasSubstr("takes no stored baseline (--compare, --baseline, --fail-on-new)"));
}

TEST_F(BenchCommandTest, GeneratesTheZooWhenNoFolderIsGiven) {
  BenchCommandOptions o = Options();
  o.models_dir.clear();
  o.model_globs = {"mlp"};
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << err_;
  EXPECT_THAT(out_, HasSubstr("generating the model zoo into"));
  EXPECT_THAT(out_, HasSubstr("mlp on ref"));
}

// --dim: every combination of the sizes of the dimensions a model has is a measurement of it,
// printed in the table and written to the reports; a model in a subfolder is named after it.
TEST_F(BenchCommandTest, DimsMeasureEveryCombinationAtItsShapes) {
  ASSERT_TRUE(WriteFileAtomically(dir_ + "/models/enc/model.onnxtxt", kTokenEncoderModel).ok());
  BenchCommandOptions o = Options();
  o.dims = {{"batch", {1, 4}}, {"seq", {16}}};
  o.json_path = dir_ + "/shapes.json";
  o.junit_path = dir_ + "/shapes.xml";
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << out_ << err_;
  EXPECT_THAT(out_, HasSubstr("enc[batch=4,seq=16] on ref, 1 thread:"));
  EXPECT_THAT(out_, HasSubstr("shapes"));  // the table's column
  EXPECT_THAT(out_, HasSubstr("batch=1,seq=16"));
  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->latency.size(), 3u);  // enc twice, mlp (no symbolic dimension) once
  EXPECT_EQ(run->latency[0].model, "enc");
  EXPECT_EQ(run->latency[0].shapes, "batch=1,seq=16");
  EXPECT_EQ(run->latency[1].shapes, "batch=4,seq=16");
  EXPECT_EQ(run->latency[2].model, "mlp");
  EXPECT_EQ(run->latency[2].shapes, "");
  auto junit = ReadFile(o.junit_path);
  ASSERT_TRUE(junit.ok());
  EXPECT_THAT(*junit, HasSubstr("classname=\"latency.enc[batch=4,seq=16]\""));

  // A --dim no measured model has fails before anything is measured.
  o.dims = {{"sequence", {16}}};
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("--dim sequence: no measured model has a dimension named"));
  EXPECT_THAT(out_, Not(HasSubstr("median")));
}

// A model that cannot be measured (unreadable, a shape it rejects, a data file behind a symbolic
// link, a fallback --fallback forbid refuses) is its own error; the others are measured; exit 2.
TEST_F(BenchCommandTest, AnUnmeasurableModelIsItsErrorAndTheOthersAreMeasured) {
  const std::string models = dir_ + "/models";
  ASSERT_TRUE(WriteFileAtomically(models + "/broken.onnx", "not a model").ok());
  ASSERT_TRUE(WriteFileAtomically(models + "/batch_one.onnxtxt", kBatchOneReshapeModel).ok());
  ASSERT_TRUE(
      WriteFileAtomically(models + "/ext/model.onnx", OneNodeModelBytes("Add", 4, "w.bin")).ok());
  ASSERT_TRUE(WriteFileAtomically(models + "/ext/w.bin", std::string(16, '\0')).ok());
  ASSERT_TRUE(
      WriteFileAtomically(models + "/linked/model.onnx", OneNodeModelBytes("Add", 4, "w.bin"))
          .ok());
  fs::create_symlink("../ext/w.bin", models + "/linked/w.bin");
  fs::create_directories(models + "/empty");
  // A subfolder without model.onnx: each of its models is "<subfolder>/<name>".
  ASSERT_TRUE(WriteFileAtomically(models + "/pair/chain.onnxtxt", kNegReluAbsChain).ok());
  BenchCommandOptions o = Options();
  o.dims = {{"batch", {4}}};
  o.json_path = dir_ + "/errors.json";
  o.junit_path = dir_ + "/errors.xml";
  EXPECT_EQ(Capture(RunBenchCommand, o), 2) << out_ << err_;
  EXPECT_THAT(err_, HasSubstr("empty holds no model.onnx"));
  EXPECT_THAT(err_, HasSubstr("not measured: batch_one[ref,1t,batch=4]:"));
  EXPECT_THAT(err_, HasSubstr("cannot reshape"));
  EXPECT_THAT(err_, HasSubstr("not measured: broken[ref,1t]:"));
  EXPECT_THAT(err_, HasSubstr("not measured: linked[ref,1t]:"));
  EXPECT_THAT(err_, HasSubstr("symbolic link"));
  EXPECT_THAT(err_, HasSubstr("3 measurement(s) could not be made"));
  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  std::map<std::string, LatencyRecord> by_model;
  for (const LatencyRecord& r : run->latency) by_model[r.model] = r;
  ASSERT_EQ(by_model.size(), 6u);
  EXPECT_EQ(by_model["pair/chain"].shapes, "batch=4");
  EXPECT_GT(by_model["pair/chain"].median_ms, 0.0);
  EXPECT_EQ(by_model["ext"].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_GT(by_model["ext"].median_ms, 0.0);
  EXPECT_EQ(by_model["mlp"].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_EQ(by_model["broken"].verdict, LatencyVerdict::kError);
  EXPECT_EQ(by_model["batch_one"].verdict, LatencyVerdict::kError);
  EXPECT_EQ(by_model["batch_one"].shapes, "batch=4");
  auto junit = ReadFile(o.junit_path);
  ASSERT_TRUE(junit.ok());
  EXPECT_THAT(*junit, HasSubstr("<error message=\"not measured: "));
}

// --fallback allow records where nodes ran, warn prints it too, forbid makes it the model's
// error. test-corrupt-state takes only the Relu of Neg, Relu, Abs.
TEST_F(BenchCommandTest, FallbackIsAllowedWarnedOrForbidden) {
  const std::string models = dir_ + "/chain_models";
  ASSERT_TRUE(WriteFileAtomically(models + "/chain.onnxtxt", kNegReluAbsChain).ok());
  BenchCommandOptions o = Options();
  o.models_dir = models;
  o.eps = {"test-corrupt-state"};
  o.json_path = dir_ + "/fallback.json";
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << out_ << err_;
  EXPECT_THAT(out_, Not(HasSubstr("fallback")));
  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->latency.size(), 1u);
  EXPECT_EQ(run->latency[0].fallback, "2 of 3 nodes on ref (Abs x1, Neg x1; 0 shape-only)");

  o.settings.fallback = FallbackPolicy::kWarn;
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << out_ << err_;
  EXPECT_THAT(out_, HasSubstr("warning: fallback chain[test-corrupt-state,1t,batch=1]: 2 of 3"));

  o.settings.fallback = FallbackPolicy::kForbid;
  EXPECT_EQ(Capture(RunBenchCommand, o), 2) << out_ << err_;
  EXPECT_THAT(err_, HasSubstr("not measured: chain[test-corrupt-state,1t]: "));
}

// --input feeds every measurement from files; the shapes are what they give.
TEST_F(BenchCommandTest, InputFilesFeedTheMeasurement) {
  const std::string models = dir_ + "/chain_models";
  ASSERT_TRUE(WriteFileAtomically(models + "/chain.onnxtxt", kNegReluAbsChain).ok());
  onnx::TensorProto x;
  x.set_name("X");
  x.set_data_type(onnx::TensorProto::FLOAT);
  x.add_dims(3);
  x.add_dims(4);
  for (int i = 0; i < 12; ++i) x.add_float_data(static_cast<float>(i) - 6.0f);
  ASSERT_TRUE(WriteFileAtomically(dir_ + "/x.pb", x.SerializeAsString()).ok());
  BenchCommandOptions o = Options();
  o.models_dir = models;
  o.input_files = {dir_ + "/x.pb"};
  o.json_path = dir_ + "/inputs.json";
  EXPECT_EQ(Capture(RunBenchCommand, o), 0) << out_ << err_;
  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->latency[0].shapes, "batch=3");

  o.dims = {{"batch", {1, 3}}};
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("with --input files each dimension takes one size"));
  o.dims.clear();
  o.input_files = {dir_ + "/x.txt"};
  EXPECT_EQ(Capture(RunBenchCommand, o), 2);
  EXPECT_THAT(err_, HasSubstr("x.txt"));
}

}  // namespace
}  // namespace onnxgate
