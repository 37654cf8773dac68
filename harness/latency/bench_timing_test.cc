// Tests of who times the bench's runs: a runtime that offers timed runs times them itself
// (--timing auto or runtime), each repetition one timed-runs call whose mean is the sample; the
// harness times them where the runtime does not offer them, with --timing harness, with the CPU
// clock and with extra work; --timing runtime refuses what it cannot measure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "harness/latency/bench_runner.h"
#include "harness/zoo/zoo.h"
#include "runtime/builtin/builtin_runtime.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// A model of the built-in runtime whose timed runs take 1, 3, 1, 3, ... ms by its own count.
class TimedModel : public LoadedModel {
 public:
  explicit TimedModel(std::unique_ptr<LoadedModel> inner) : inner_(std::move(inner)) {}
  std::vector<ValueInfo> inputs() const override { return inner_->inputs(); }
  std::vector<ValueInfo> outputs() const override { return inner_->outputs(); }
  std::map<std::string, std::string> metadata() const override { return inner_->metadata(); }
  std::vector<NodePlacement> placements() const override { return inner_->placements(); }
  StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const override {
    return inner_->Run(feeds);
  }
  StatusOr<std::vector<double>> TimedRuns(const std::vector<NamedValue>& feeds,
                                          int64_t runs) const override {
    if (feeds.empty()) return InvalidArgument("no feeds");
    std::vector<double> times;
    for (int64_t i = 0; i < runs; ++i) times.push_back(i % 2 == 0 ? 1.0 : 3.0);
    return times;
  }

 private:
  std::unique_ptr<LoadedModel> inner_;
};

// The built-in runtime with timed runs.
class TimingRuntime : public RuntimeUnderTest {
 public:
  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  AcceptedVersions accepted_versions() const override { return inner_->accepted_versions(); }
  std::vector<std::string> providers() const override { return inner_->providers(); }
  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& path,
                                              const LoadOptions& options) const override {
    ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model, inner_->Load(path, options));
    return std::unique_ptr<LoadedModel>(std::make_unique<TimedModel>(std::move(model)));
  }
  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const override {
    return inner_->Claims(provider);
  }
  StatusOr<int> MaxIntraOpThreads(const std::string& provider) const override {
    return inner_->MaxIntraOpThreads(provider);
  }

 private:
  std::unique_ptr<RuntimeUnderTest> inner_ = CreateBuiltinRuntime();
};

class BenchTimingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "bench_timing_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    auto paths = zoo::GenerateZoo(dir_, zoo::SmallZooModels(), {"mlp"});
    ASSERT_TRUE(paths.ok()) << paths.status().ToString();
    mlp_ = (*paths)[0];
  }
  void TearDown() override { fs::remove_all(dir_); }

  static BenchSettings Fast(BenchTiming timing) {
    BenchSettings s;
    s.repetitions = 9;
    s.min_time_s = 0.004;  // 3 runs at the first estimate of 5/3 ms a run
    s.warmup_s = 0.0;
    s.timing = timing;
    return s;
  }

  std::string dir_, mlp_;
  TimingRuntime timing_runtime_;
  std::unique_ptr<RuntimeUnderTest> builtin_ = CreateBuiltinRuntime();
};

TEST_F(BenchTimingTest, ARuntimeThatOffersTimedRunsTimesThem) {
  auto m = MeasureModel(timing_runtime_, mlp_, "ref", 1, Fast(BenchTiming::kAuto));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->timed_by, "runtime");
  EXPECT_EQ(m->clock, "wall");
  ASSERT_EQ(m->samples_ms.size(), 9u);
  // Sized from the first call (1, 3, 1 ms: a mean of 5/3 ms): 4 ms take 3 runs.
  EXPECT_EQ(m->iterations_per_repetition, 3);
  EXPECT_DOUBLE_EQ(m->samples_ms[0], 5.0 / 3.0);
  EXPECT_EQ(m->real_ms, m->samples_ms);
}

TEST_F(BenchTimingTest, APairTimedByItsRuntimesTakesTurnsOfTheSizedRuns) {
  auto pair = MeasurePair(BenchTarget{&timing_runtime_, mlp_, "ref"},
                          BenchTarget{builtin_.get(), mlp_, "ref"}, 1, Fast(BenchTiming::kAuto));
  ASSERT_TRUE(pair.ok()) << pair.status().ToString();
  EXPECT_EQ((*pair)[0].timed_by, "runtime");
  EXPECT_EQ((*pair)[1].timed_by, "harness");
  EXPECT_EQ((*pair)[0].samples_ms.size(), 9u);
  EXPECT_EQ((*pair)[0].iterations, std::vector<int64_t>(9, 3));
}

TEST_F(BenchTimingTest, TheHarnessTimesWhatTheRuntimeDoesNotOrMayNot) {
  auto builtin = MeasureModel(*builtin_, mlp_, "ref", 1, Fast(BenchTiming::kAuto));
  ASSERT_TRUE(builtin.ok()) << builtin.status().ToString();
  EXPECT_EQ(builtin->timed_by, "harness");
  auto asked = MeasureModel(timing_runtime_, mlp_, "ref", 1, Fast(BenchTiming::kHarness));
  ASSERT_TRUE(asked.ok()) << asked.status().ToString();
  EXPECT_EQ(asked->timed_by, "harness");
  BenchSettings cpu = Fast(BenchTiming::kAuto);
  cpu.clock = BenchClock::kCpu;
  auto on_cpu = MeasureModel(timing_runtime_, mlp_, "ref", 1, cpu);
  ASSERT_TRUE(on_cpu.ok()) << on_cpu.status().ToString();
  EXPECT_EQ(on_cpu->timed_by, "harness");
  EXPECT_EQ(on_cpu->clock, "cpu");
}

TEST_F(BenchTimingTest, TimingByTheRuntimeRefusesWhatItCannotMeasure) {
  auto not_offered = MeasureModel(*builtin_, mlp_, "ref", 1, Fast(BenchTiming::kRuntime));
  EXPECT_EQ(not_offered.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(not_offered.status().message(), HasSubstr("mlp.onnx"));
  EXPECT_THAT(not_offered.status().message(), HasSubstr("timed runs are not offered"));
  BenchSettings cpu = Fast(BenchTiming::kRuntime);
  cpu.clock = BenchClock::kCpu;
  EXPECT_THAT(MeasureModel(timing_runtime_, mlp_, "ref", 1, cpu).status().message(),
              HasSubstr("--clock cpu needs --timing harness"));
  BenchSettings extra = Fast(BenchTiming::kRuntime);
  extra.extra_work_percent = 10.0;
  EXPECT_EQ(MeasureModel(timing_runtime_, mlp_, "ref", 1, extra).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(BenchTimingNameTest, Names) {
  EXPECT_STREQ(BenchTimingName(BenchTiming::kRuntime), "runtime");
  EXPECT_EQ(*BenchTimingFromName("harness"), BenchTiming::kHarness);
  EXPECT_THAT(BenchTimingFromName("gpu").status().message(),
              HasSubstr("expected auto, harness or runtime"));
}

}  // namespace
}  // namespace onnxgate
