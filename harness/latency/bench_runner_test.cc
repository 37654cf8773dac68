// Tests of the bench runner on the built-in runtime: Google Benchmark delivers one sample per
// repetition, settings are validated, failures name the model, extra work slows runs down.
#include "harness/latency/bench_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/latency/bench_models_testing.h"
#include "harness/latency/extra_work.h"
#include "harness/latency/isolated_measure.h"
#include "harness/zoo/zoo.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/sha256.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class BenchRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "bench_runner_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    auto paths = zoo::GenerateZoo(dir_, zoo::SmallZooModels(), {"mlp", "transformer_encoder"});
    ASSERT_TRUE(paths.ok()) << paths.status().ToString();
    mlp_ = (*paths)[1];
    transformer_ = (*paths)[0];
    runtime_ = CreateBuiltinRuntime();
  }
  void TearDown() override { fs::remove_all(dir_); }

  static BenchSettings Fast() {
    BenchSettings s;
    s.repetitions = 9;
    s.min_time_s = 0.005;
    s.warmup_s = 0.0;
    return s;
  }

  std::string dir_, mlp_, transformer_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

class CountingObserver : public BenchObserver {
 public:
  void OnLoaded(double, double) override { ++loaded; }
  void OnTick() override { ++ticks; }
  int loaded = 0;
  int ticks = 0;
};

TEST_F(BenchRunnerTest, OneSamplePerRepetition) {
  CountingObserver observer;
  auto m = MeasureModel(*runtime_, mlp_, "ref", 1, Fast(), &observer);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->model, "mlp");
  EXPECT_EQ(m->ep, "ref");
  EXPECT_EQ(m->threads, 1);
  ASSERT_EQ(m->samples_ms.size(), 9u);
  for (double s : m->samples_ms) EXPECT_GT(s, 0.0);
  EXPECT_GE(m->iterations_per_repetition, 1);
  EXPECT_GT(m->load_ms, 0.0);
  EXPECT_GT(m->first_run_ms, 0.0);
  EXPECT_EQ(m->summary.n, 9u);
  EXPECT_LE(m->summary.min, m->summary.median);
  EXPECT_LE(m->summary.median, m->summary.p90);
  EXPECT_EQ(m->model_sha256, Sha256Hex(*ReadFile(mlp_)));
  EXPECT_EQ(observer.loaded, 1);
  EXPECT_GE(observer.ticks, 9);  // every repetition enters the loop, estimation may add more
}

TEST_F(BenchRunnerTest, APairIsMeasuredSampleBesideSample) {
  CountingObserver observer;
  BenchSettings s = Fast();
  s.extra_work_percent = 50.0;
  const BenchTarget slowed{runtime_.get(), mlp_, "ref"};
  const BenchTarget plain{runtime_.get(), transformer_, "ref", /*extra_work=*/false};
  auto pair = MeasurePair(slowed, plain, 1, s, &observer);
  ASSERT_TRUE(pair.ok()) << pair.status().ToString();
  const BenchMeasurement& first = (*pair)[0];
  const BenchMeasurement& second = (*pair)[1];
  EXPECT_EQ(first.model, "mlp");
  EXPECT_EQ(second.model, "transformer_encoder");
  for (const BenchMeasurement* m : {&first, &second}) {
    ASSERT_EQ(m->samples_ms.size(), 9u);
    EXPECT_EQ(m->summary.n, 9u);
    EXPECT_GT(m->load_ms, 0.0);
    // Every kept repetition has the run count the sizing repetition found.
    for (int64_t n : m->iterations) EXPECT_EQ(n, m->iterations_per_repetition);
  }
  // The extra work slows only the side that asks for it.
  EXPECT_GT(first.extra_work_units, 0);
  EXPECT_EQ(second.extra_work_units, 0);
  EXPECT_EQ(observer.loaded, 2);
  EXPECT_GE(observer.ticks, 2 + 18);  // two sizing repetitions, then 9 a side

  s.repetitions = 3;
  EXPECT_EQ(MeasurePair(slowed, plain, 1, s).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(BenchRunnerTest, IntegerInputsAndCpuClock) {
  BenchSettings s = Fast();
  s.clock = BenchClock::kCpu;
  s.repetitions = 10;
  auto m = MeasureModel(*runtime_, transformer_, "ref", 1, s);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->samples_ms.size(), 10u);
  EXPECT_EQ(m->threads, 1);
}

// The feeds are made at the measurement's --dim sizes, integer inputs within their range (the
// metadata's, or --input-range's over it), and the measurement says the shapes it ran at.
TEST_F(BenchRunnerTest, ShapesAreBoundAndTokenIdsStayInRange) {
  const std::string encoder = dir_ + "/encoder.onnxtxt";
  ASSERT_TRUE(WriteFileAtomically(encoder, kTokenEncoderModel).ok());
  BenchSettings s = Fast();
  auto unsized = MeasureModel(*runtime_, encoder, "ref", 1, s);
  ASSERT_TRUE(unsized.ok()) << unsized.status().ToString();
  EXPECT_EQ(unsized->shapes, "batch=1,seq=1");

  s.feeds.dims = {{"batch", 4}, {"seq", 16}};
  auto sized = MeasureModel(*runtime_, encoder, "ref", 1, s);
  ASSERT_TRUE(sized.ok()) << sized.status().ToString();
  EXPECT_EQ(sized->shapes, "batch=4,seq=16");
  EXPECT_TRUE(sized->fallback.empty());

  // Ids past the 16-row table fail the Gather: the range given is the one used.
  s.feeds.ranges = {{"input_ids", {16, 17}}};
  auto outside = MeasureModel(*runtime_, encoder, "ref", 1, s);
  ASSERT_FALSE(outside.ok());
  EXPECT_THAT(outside.status().message(), HasSubstr("at batch=4,seq=16 on ref"));
  EXPECT_THAT(outside.status().message(), HasSubstr("first run"));
}

// Under --fallback allow the nodes a provider declines run on ref and the measurement says so;
// under forbid the load fails. test-corrupt-state takes only Relu (and spoils its process, so it
// runs in a worker).
TEST_F(BenchRunnerTest, FallbackIsRecordedOrRefused) {
  const std::string chain = dir_ + "/chain.onnxtxt";
  ASSERT_TRUE(WriteFileAtomically(chain, kNegReluAbsChain).ok());
  auto runtime = CreateBuiltinRuntime(BuiltinAndTestProviderEntries());
  BenchSettings s = Fast();
  s.fallback = FallbackPolicy::kAllow;
  auto allowed = MeasureModelIsolated(*runtime, chain, "test-corrupt-state", 1, s, 120);
  ASSERT_TRUE(allowed.ok()) << allowed.status().ToString();
  EXPECT_EQ(allowed->fallback, "2 of 3 nodes on ref (Abs x1, Neg x1; 0 shape-only)");
  EXPECT_EQ(allowed->shapes, "batch=1");

  s.fallback = FallbackPolicy::kForbid;
  auto forbidden = MeasureModelIsolated(*runtime, chain, "test-corrupt-state", 1, s, 120);
  ASSERT_FALSE(forbidden.ok());
  EXPECT_THAT(forbidden.status().message(), HasSubstr("chain.onnxtxt on test-corrupt-state"));
}

TEST_F(BenchRunnerTest, SettingsAreValidated) {
  BenchSettings s = Fast();
  s.repetitions = 5;
  auto few = MeasureModel(*runtime_, mlp_, "ref", 1, s);
  EXPECT_EQ(few.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(few.status().message(), HasSubstr("at least 9 repetitions"));
  s = Fast();
  s.min_time_s = 0.0;
  EXPECT_EQ(MeasureModel(*runtime_, mlp_, "ref", 1, s).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(BenchRunnerTest, FailuresNameTheModel) {
  auto missing = MeasureModel(*runtime_, dir_ + "/nope.onnx", "ref", 1, Fast());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("nope.onnx"));
  auto unknown_ep = MeasureModel(*runtime_, mlp_, "no-such-ep", 1, Fast());
  EXPECT_FALSE(unknown_ep.ok());
  EXPECT_THAT(unknown_ep.status().message(), HasSubstr("mlp.onnx on no-such-ep"));
}

TEST_F(BenchRunnerTest, ExtraWorkIsSizedFromTheRunTime) {
  // The size follows from the measured run time and the busy-work rate; what it does to the
  // latency is shown by ci/latency-evidence.sh, not asserted here.
  BenchSettings s = Fast();
  auto plain = MeasureModel(*runtime_, transformer_, "ref", 1, s);
  s.extra_work_percent = 100.0;
  auto slowed = MeasureModel(*runtime_, transformer_, "ref", 1, s);
  ASSERT_TRUE(plain.ok() && slowed.ok());
  EXPECT_EQ(plain->extra_work_units, 0);
  EXPECT_GT(slowed->extra_work_units, 0);
}

TEST(ExtraWorkTest, BusyWorkRateIsMeasured) {
  EXPECT_GT(BusyWorkUnitsPerMs(), 1000.0);  // any machine does a thousand xorshift steps per ms
}

TEST(BenchClockTest, Names) {
  EXPECT_STREQ(BenchClockName(BenchClock::kWall), "wall");
  EXPECT_EQ(*BenchClockFromName("cpu"), BenchClock::kCpu);
  EXPECT_THAT(BenchClockFromName("tsc").status().message(), HasSubstr("expected wall or cpu"));
  EXPECT_EQ(ModelNameFromPath("/a/b/resnet18.onnx"), "resnet18");
  EXPECT_EQ(ModelNameFromPath("mlp"), "mlp");
}

}  // namespace
}  // namespace onnxgate
