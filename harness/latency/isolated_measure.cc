// The measurement (or a pair of them) crosses the process boundary as JSON: every sample and
// count, or the error's code and message.
#include "harness/latency/isolated_measure.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "harness/latency/statistics.h"
#include "harness/worker.h"

namespace onnxgate {

namespace {

using Json = nlohmann::json;

Json ErrorJson(const Status& status) {
  return {{"error", {{"code", static_cast<int>(status.code())}, {"message", status.message()}}}};
}

Json ToJson(const BenchMeasurement& m) {
  Json j;
  j["model"] = m.model;
  j["model_path"] = m.model_path;
  j["model_sha256"] = m.model_sha256;
  j["ep"] = m.ep;
  j["threads"] = m.threads;
  j["optimization_level"] = m.optimization_level;
  j["load_ms"] = m.load_ms;
  j["first_run_ms"] = m.first_run_ms;
  j["iterations_per_repetition"] = m.iterations_per_repetition;
  j["extra_work_units"] = m.extra_work_units;
  j["samples_ms"] = m.samples_ms;
  j["real_ms"] = m.real_ms;
  j["cpu_ms"] = m.cpu_ms;
  j["iterations"] = m.iterations;
  return j;
}

std::string Encode(const StatusOr<BenchMeasurement>& m) {
  return (m.ok() ? ToJson(*m) : ErrorJson(m.status())).dump();
}

// A pair as a two-element array.
std::string Encode(const StatusOr<std::array<BenchMeasurement, 2>>& pair) {
  if (!pair.ok()) return ErrorJson(pair.status()).dump();
  return Json::array({ToJson((*pair)[0]), ToJson((*pair)[1])}).dump();
}

// The error a worker sent back (a JSON object with "error"), or OK.
Status ErrorFromJson(const Json& j) {
  if (!j.is_object() || !j.contains("error")) return OkStatus();
  const int code = j["error"]["code"].get<int>();
  const bool known =
      code > static_cast<int>(StatusCode::kOk) && code <= static_cast<int>(StatusCode::kInternal);
  return Status(known ? static_cast<StatusCode>(code) : StatusCode::kInternal,
                j["error"]["message"].get<std::string>());
}

// Throws Json::exception on a malformed record.
BenchMeasurement FromJson(const Json& j) {
  BenchMeasurement m;
  m.model = j["model"].get<std::string>();
  m.model_path = j["model_path"].get<std::string>();
  m.model_sha256 = j["model_sha256"].get<std::string>();
  m.ep = j["ep"].get<std::string>();
  m.threads = j["threads"].get<int>();
  m.optimization_level = j["optimization_level"].get<int>();
  m.load_ms = j["load_ms"].get<double>();
  m.first_run_ms = j["first_run_ms"].get<double>();
  m.iterations_per_repetition = j["iterations_per_repetition"].get<int64_t>();
  m.extra_work_units = j["extra_work_units"].get<int64_t>();
  m.samples_ms = j["samples_ms"].get<std::vector<double>>();
  m.real_ms = j["real_ms"].get<std::vector<double>>();
  m.cpu_ms = j["cpu_ms"].get<std::vector<double>>();
  m.iterations = j["iterations"].get<std::vector<int64_t>>();
  m.summary = Summarize(m.samples_ms);
  return m;
}

// `T` is BenchMeasurement or the pair.
template <typename T>
StatusOr<T> Decode(const std::string& payload, const std::string& what) {
  try {
    const Json j = Json::parse(payload);
    ONNXGATE_RETURN_IF_ERROR(ErrorFromJson(j));
    if constexpr (std::is_same_v<T, BenchMeasurement>) {
      return FromJson(j);
    } else {
      if (!j.is_array() || j.size() != 2) {
        return Internal(what + ": the worker's result is not a pair of measurements");
      }
      return T{FromJson(j[0]), FromJson(j[1])};
    }
  } catch (const Json::exception& e) {
    return Internal(what + ": the worker's result is unreadable: " + e.what());
  }
}

// Runs `measure` in a forked child with the timeout; `what` names the measurement in errors.
template <typename T>
StatusOr<T> RunIsolated(const std::function<StatusOr<T>()>& measure, double timeout_s,
                        const std::string& what) {
  if (!(timeout_s > 0)) return InvalidArgument(what + ": the timeout must be positive");
  WorkerOptions options;
  options.timeout_seconds = timeout_s;
  const Job job = [&] { return Encode(measure()); };
  const std::vector<JobResult> results = WorkerPool(options).Run({job});
  const JobResult& r = results.at(0);
  switch (r.outcome) {
    case JobOutcome::kOk: return Decode<T>(r.payload, what);
    case JobOutcome::kCrash: return Internal(what + ": the measurement crashed: " + r.message);
    case JobOutcome::kTimeout:
      return Unavailable(what + ": the measurement " + r.message + "; its process was killed");
    case JobOutcome::kNotRun: break;
  }
  return Unavailable(what + ": the measurement did not run: " + r.message);
}

}  // namespace

StatusOr<BenchMeasurement> MeasureModelIsolated(const RuntimeUnderTest& runtime,
                                                const std::string& model_path,
                                                const std::string& ep, int threads,
                                                const BenchSettings& settings, double timeout_s,
                                                BenchObserver* observer) {
  return RunIsolated<BenchMeasurement>(
      [&] { return MeasureModel(runtime, model_path, ep, threads, settings, observer); }, timeout_s,
      "benchmarking " + model_path + " on " + ep + " with " + std::to_string(threads) +
          " thread(s)");
}

StatusOr<std::array<BenchMeasurement, 2>> MeasurePairIsolated(
    const BenchTarget& first, const BenchTarget& second, int threads, const BenchSettings& settings,
    double timeout_s, BenchObserver* observer) {
  return RunIsolated<std::array<BenchMeasurement, 2>>(
      [&] { return MeasurePair(first, second, threads, settings, observer); }, timeout_s,
      "benchmarking " + first.model_path + " on " + first.ep + " beside " + second.ep + " with " +
          std::to_string(threads) + " thread(s)");
}

}  // namespace onnxgate
