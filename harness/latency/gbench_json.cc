// Google Benchmark's JSON format for bench measurements (see gbench_json.h).
#include "harness/latency/gbench_json.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "harness/latency/statistics.h"
#include "runtime/base/utc_time.h"

namespace onnxgate {

namespace {

using Json = nlohmann::ordered_json;

// The statistics of a measurement's samples; all zero when there are none.
SampleSummary SummaryOf(const std::vector<double>& samples) {
  return samples.empty() ? SampleSummary{} : Summarize(samples);
}

// The keys every entry of one measurement shares, in Google Benchmark's order, then onnxgate's.
Json EntryHead(const std::string& name, const std::string& run_name, size_t family,
               const char* run_type, size_t repetitions) {
  Json e;
  e["name"] = name;
  e["family_index"] = family;
  e["per_family_instance_index"] = 0;
  e["run_name"] = run_name;
  e["run_type"] = run_type;
  e["repetitions"] = repetitions;
  return e;
}

void AddOwnFields(const BenchMeasurement& m, BenchClock clock, Json* e) {
  (*e)["model"] = m.model;
  (*e)["ep"] = m.ep;
  (*e)["intra_op_threads"] = m.threads;
  (*e)["clock"] = BenchClockName(clock);
  (*e)["optimization_level"] = m.optimization_level;
}

}  // namespace

GbenchContext CurrentGbenchContext(const std::string& executable) {
  GbenchContext c;
  c.date = UtcNowIso8601();
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) c.host_name = name;
  c.executable = executable;
  const benchmark::CPUInfo& cpu = benchmark::CPUInfo::Get();
  c.num_cpus = cpu.num_cpus;
  c.mhz_per_cpu = static_cast<int>(std::lround(cpu.cycles_per_second / 1e6));
  c.cpu_scaling_enabled = cpu.scaling == benchmark::CPUInfo::Scaling::ENABLED;
  c.load_avg = cpu.load_avg;
#ifdef NDEBUG
  c.library_build_type = "release";
#else
  c.library_build_type = "debug";
#endif
  return c;
}

std::string GbenchRunName(const BenchMeasurement& m) {
  return m.model + "/" + m.ep + "/intra_op_threads:" + std::to_string(m.threads) +
         (m.shapes.empty() ? "" : "/" + m.shapes);
}

Json RenderGbenchJson(const GbenchContext& context,
                      const std::vector<BenchMeasurement>& measurements, BenchClock clock) {
  Json ctx;
  ctx["date"] = context.date;
  ctx["host_name"] = context.host_name;
  ctx["executable"] = context.executable;
  ctx["num_cpus"] = context.num_cpus;
  ctx["mhz_per_cpu"] = context.mhz_per_cpu;
  ctx["cpu_scaling_enabled"] = context.cpu_scaling_enabled;
  ctx["load_avg"] = context.load_avg;
  ctx["library_build_type"] = context.library_build_type;
  // Version 1 is the one Google Benchmark's tools accept; it fixes the fields used here.
  ctx["json_schema_version"] = 1;

  Json benchmarks = Json::array();
  for (size_t family = 0; family < measurements.size(); ++family) {
    const BenchMeasurement& m = measurements[family];
    const std::string run_name = GbenchRunName(m);
    const size_t n = m.real_ms.size();
    for (size_t i = 0; i < n; ++i) {
      Json e = EntryHead(run_name, run_name, family, "iteration", n);
      e["repetition_index"] = i;
      e["threads"] = 1;
      e["iterations"] = i < m.iterations.size() ? m.iterations[i] : 0;
      e["real_time"] = m.real_ms[i];
      e["cpu_time"] = i < m.cpu_ms.size() ? m.cpu_ms[i] : 0.0;
      e["time_unit"] = "ms";
      AddOwnFields(m, clock, &e);
      benchmarks.push_back(std::move(e));
    }
    // Google Benchmark's aggregates, from the same statistics the comparator uses (median by
    // interpolation, sample standard deviation, cv = stddev / mean).
    const SampleSummary real = SummaryOf(m.real_ms);
    const SampleSummary cpu = SummaryOf(m.cpu_ms);
    struct Aggregate {
      const char* name;
      double SampleSummary::*field;
      const char* unit;
    };
    static const Aggregate kAggregates[] = {
        {"mean", &SampleSummary::mean, "time"},
        {"median", &SampleSummary::median, "time"},
        {"stddev", &SampleSummary::stddev, "time"},
        {"cv", &SampleSummary::cv, "percentage"},
    };
    for (const Aggregate& a : kAggregates) {
      Json e = EntryHead(run_name + "_" + a.name, run_name, family, "aggregate", n);
      e["threads"] = 1;
      e["aggregate_name"] = a.name;
      e["aggregate_unit"] = a.unit;
      e["iterations"] = n;  // Google Benchmark's aggregates count the repetitions here
      e["real_time"] = real.*a.field;
      e["cpu_time"] = cpu.*a.field;
      e["time_unit"] = "ms";
      AddOwnFields(m, clock, &e);
      benchmarks.push_back(std::move(e));
    }
  }
  Json out;
  out["context"] = std::move(ctx);
  out["benchmarks"] = std::move(benchmarks);
  return out;
}

}  // namespace onnxgate
