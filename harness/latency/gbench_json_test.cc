// Tests that the bench JSON has the structure of Google Benchmark's JSON output (what its
// tools/compare.py reads): "context" and "benchmarks" with iteration and aggregate entries.
#include "harness/latency/gbench_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace onnxgate {
namespace {

using Json = nlohmann::ordered_json;

BenchMeasurement Measurement(const std::string& model, int threads) {
  BenchMeasurement m;
  m.model = model;
  m.ep = "ref";
  m.threads = threads;
  m.real_ms = {2.0, 4.0, 3.0};
  m.cpu_ms = {1.0, 2.0, 3.0};
  m.iterations = {10, 11, 12};
  m.samples_ms = m.real_ms;
  return m;
}

GbenchContext Context() {
  GbenchContext c;
  c.date = "2026-01-02T03:04:05Z";
  c.host_name = "host";
  c.executable = "onnxgate";
  c.num_cpus = 2;
  c.mhz_per_cpu = 2400;
  c.load_avg = {0.5, 0.25, 0.125};
  c.library_build_type = "release";
  return c;
}

TEST(GbenchJsonTest, HasGoogleBenchmarkContext) {
  const Json j = RenderGbenchJson(Context(), {}, BenchClock::kWall);
  ASSERT_TRUE(j.contains("context"));
  const Json& c = j["context"];
  EXPECT_EQ(c["date"], "2026-01-02T03:04:05Z");
  EXPECT_EQ(c["host_name"], "host");
  EXPECT_EQ(c["executable"], "onnxgate");
  EXPECT_EQ(c["num_cpus"], 2);
  EXPECT_EQ(c["mhz_per_cpu"], 2400);
  EXPECT_EQ(c["cpu_scaling_enabled"], false);
  EXPECT_EQ(c["load_avg"].size(), 3u);
  EXPECT_EQ(c["library_build_type"], "release");
  // compare.py refuses any other schema version.
  EXPECT_EQ(c["json_schema_version"], 1);
  ASSERT_TRUE(j["benchmarks"].is_array());
  EXPECT_TRUE(j["benchmarks"].empty());
}

TEST(GbenchJsonTest, WritesOneIterationEntryPerRepetition) {
  const Json j = RenderGbenchJson(Context(), {Measurement("mlp", 2)}, BenchClock::kWall);
  const Json& b = j["benchmarks"];
  ASSERT_EQ(b.size(), 3u + 4u);
  for (int i = 0; i < 3; ++i) {
    const Json& e = b[i];
    EXPECT_EQ(e["name"], "mlp/ref/intra_op_threads:2");
    EXPECT_EQ(e["run_name"], "mlp/ref/intra_op_threads:2");
    EXPECT_EQ(e["run_type"], "iteration");
    EXPECT_EQ(e["family_index"], 0);
    EXPECT_EQ(e["per_family_instance_index"], 0);
    EXPECT_EQ(e["repetitions"], 3);
    EXPECT_EQ(e["repetition_index"], i);
    EXPECT_EQ(e["threads"], 1);
    EXPECT_EQ(e["time_unit"], "ms");
    EXPECT_FALSE(e.contains("aggregate_name"));
    // onnxgate's own fields beside Google Benchmark's.
    EXPECT_EQ(e["model"], "mlp");
    EXPECT_EQ(e["ep"], "ref");
    EXPECT_EQ(e["intra_op_threads"], 2);
    EXPECT_EQ(e["clock"], "wall");
  }
  EXPECT_EQ(b[1]["iterations"], 11);
  EXPECT_DOUBLE_EQ(b[1]["real_time"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(b[1]["cpu_time"].get<double>(), 2.0);
}

TEST(GbenchJsonTest, WritesGoogleBenchmarkAggregates) {
  const Json j = RenderGbenchJson(Context(), {Measurement("mlp", 1)}, BenchClock::kCpu);
  const Json& b = j["benchmarks"];
  ASSERT_EQ(b.size(), 7u);
  const char* names[] = {"mean", "median", "stddev", "cv"};
  for (int i = 0; i < 4; ++i) {
    const Json& e = b[3 + i];
    EXPECT_EQ(e["name"], std::string("mlp/ref/intra_op_threads:1_") + names[i]);
    EXPECT_EQ(e["run_name"], "mlp/ref/intra_op_threads:1");
    EXPECT_EQ(e["run_type"], "aggregate");
    EXPECT_EQ(e["aggregate_name"], names[i]);
    EXPECT_EQ(e["repetitions"], 3);
    EXPECT_EQ(e["iterations"], 3);
    EXPECT_EQ(e["threads"], 1);
    EXPECT_EQ(e["time_unit"], "ms");
    EXPECT_EQ(e["clock"], "cpu");
  }
  EXPECT_EQ(b[3]["aggregate_unit"], "time");
  EXPECT_EQ(b[6]["aggregate_unit"], "percentage");
  EXPECT_DOUBLE_EQ(b[3]["real_time"].get<double>(), 3.0);  // mean of 2, 4, 3
  EXPECT_DOUBLE_EQ(b[4]["real_time"].get<double>(), 3.0);  // median
  EXPECT_DOUBLE_EQ(b[4]["cpu_time"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(b[5]["real_time"].get<double>(), 1.0);  // sample stddev
  EXPECT_DOUBLE_EQ(b[6]["real_time"].get<double>(), 1.0 / 3.0);
}

TEST(GbenchJsonTest, NumbersFamiliesInMeasurementOrder) {
  const Json j = RenderGbenchJson(Context(), {Measurement("mlp", 1), Measurement("resnet18", 1)},
                                  BenchClock::kWall);
  const Json& b = j["benchmarks"];
  ASSERT_EQ(b.size(), 14u);
  EXPECT_EQ(b[7]["family_index"], 1);
  EXPECT_EQ(b[7]["name"], "resnet18/ref/intra_op_threads:1");
}

}  // namespace
}  // namespace onnxgate
