// The measurement (or a pair of them) crosses the process boundary as JSON: every sample and
// count, or the error's code and message.
#include "harness/latency/isolated_measure.h"

#include <functional>
#include <type_traits>

#include "harness/latency/statistics.h"
#include "harness/models/model_feeds.h"
#include "harness/worker.h"
#include "runtime/base/json_reader.h"

namespace onnxgate {

namespace {

using Json = nlohmann::json;

Json ErrorJson(const Status& status) {
  return {{"error", {{"code", StatusCodeName(status.code())}, {"message", status.message()}}}};
}

Json ToJson(const BenchMeasurement& m) {
  Json j;
  j["model"] = m.model;
  j["model_path"] = m.model_path;
  j["model_sha256"] = m.model_sha256;
  j["ep"] = m.ep;
  j["threads"] = m.threads;
  j["optimization_level"] = m.optimization_level;
  j["shapes"] = m.shapes;
  j["fallback"] = m.fallback;
  j["load_ms"] = m.load_ms;
  j["first_run_ms"] = m.first_run_ms;
  j["iterations_per_repetition"] = m.iterations_per_repetition;
  j["extra_work_units"] = m.extra_work_units;
  j["timed_by"] = m.timed_by;
  j["clock"] = m.clock;
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

// The error a worker sent back (an object with "error") in *error, or OK in *error. A code this
// side does not know is kInternal. An error of its own when the record is malformed.
Status ErrorFromJson(const JsonValue& j, Status* error) {
  *error = OkStatus();
  if (!j.is_object() || !j.raw().contains("error")) return OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject e, j.Object()->RequiredObject("error"));
  std::string code, message;
  ONNXGATE_RETURN_IF_ERROR(e.Require("code", &code));
  ONNXGATE_RETURN_IF_ERROR(e.Require("message", &message));
  *error = Status(StatusCodeFromName(code).value_or(StatusCode::kInternal), message);
  return OkStatus();
}

Status FromJson(const JsonValue& j, BenchMeasurement* m) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject o, j.Object());
  ONNXGATE_RETURN_IF_ERROR(o.Require("model", &m->model));
  ONNXGATE_RETURN_IF_ERROR(o.Require("model_path", &m->model_path));
  ONNXGATE_RETURN_IF_ERROR(o.Require("model_sha256", &m->model_sha256));
  ONNXGATE_RETURN_IF_ERROR(o.Require("ep", &m->ep));
  ONNXGATE_RETURN_IF_ERROR(o.Require("threads", &m->threads));
  ONNXGATE_RETURN_IF_ERROR(o.Require("optimization_level", &m->optimization_level));
  ONNXGATE_RETURN_IF_ERROR(o.Require("shapes", &m->shapes));
  ONNXGATE_RETURN_IF_ERROR(o.Require("fallback", &m->fallback));
  ONNXGATE_RETURN_IF_ERROR(o.Require("load_ms", &m->load_ms));
  ONNXGATE_RETURN_IF_ERROR(o.Require("first_run_ms", &m->first_run_ms));
  ONNXGATE_RETURN_IF_ERROR(o.Require("iterations_per_repetition", &m->iterations_per_repetition));
  ONNXGATE_RETURN_IF_ERROR(o.Require("extra_work_units", &m->extra_work_units));
  ONNXGATE_RETURN_IF_ERROR(o.Require("timed_by", &m->timed_by));
  ONNXGATE_RETURN_IF_ERROR(o.Require("clock", &m->clock));
  ONNXGATE_RETURN_IF_ERROR(o.Require("samples_ms", &m->samples_ms));
  ONNXGATE_RETURN_IF_ERROR(o.Require("real_ms", &m->real_ms));
  ONNXGATE_RETURN_IF_ERROR(o.Require("cpu_ms", &m->cpu_ms));
  ONNXGATE_RETURN_IF_ERROR(o.Require("iterations", &m->iterations));
  m->summary = Summarize(m->samples_ms);
  return OkStatus();
}

// `T` is BenchMeasurement or the pair: the worker's error as it sent it, or Internal naming
// `what` when its result is malformed.
template <typename T>
StatusOr<T> Decode(const std::string& payload, const std::string& what) {
  Status sent;
  T out;
  Status read = [&]() -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc,
                              JsonDocument::Parse(payload, "the worker's result"));
    ONNXGATE_RETURN_IF_ERROR(ErrorFromJson(doc.root(), &sent));
    if (!sent.ok()) return OkStatus();
    if constexpr (std::is_same_v<T, BenchMeasurement>) {
      return FromJson(doc.root(), &out);
    } else {
      ONNXGATE_ASSIGN_OR_RETURN(JsonArray pair, doc.root().Array(2));
      if (pair.size() != 2) return pair.value().TypeError("a pair of measurements");
      ONNXGATE_RETURN_IF_ERROR(FromJson(pair[0], &out[0]));
      return FromJson(pair[1], &out[1]);
    }
  }();
  if (!read.ok()) return Internal(what + ": the worker's result is unreadable: " + read.message());
  if (!sent.ok()) return sent;
  return out;
}

// " at batch=4,seq=128" for a measurement at those sizes, else empty.
std::string AtShapes(const BenchSettings& settings) {
  const std::string shapes = DimSizesText(settings.feeds.dims);
  return shapes.empty() ? "" : " at " + shapes;
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

std::string EncodeMeasurementResult(const StatusOr<BenchMeasurement>& measurement) {
  return Encode(measurement);
}

StatusOr<BenchMeasurement> DecodeMeasurementResult(const std::string& payload,
                                                   const std::string& what) {
  return Decode<BenchMeasurement>(payload, what);
}

StatusOr<BenchMeasurement> MeasureModelIsolated(const RuntimeUnderTest& runtime,
                                                const std::string& model_path,
                                                const std::string& ep, int threads,
                                                const BenchSettings& settings, double timeout_s,
                                                BenchObserver* observer) {
  return RunIsolated<BenchMeasurement>(
      [&] { return MeasureModel(runtime, model_path, ep, threads, settings, observer); }, timeout_s,
      "benchmarking " + model_path + AtShapes(settings) + " on " + ep + " with " +
          std::to_string(threads) + " thread(s)");
}

StatusOr<std::array<BenchMeasurement, 2>> MeasurePairIsolated(
    const BenchTarget& first, const BenchTarget& second, int threads, const BenchSettings& settings,
    double timeout_s, BenchObserver* observer) {
  return RunIsolated<std::array<BenchMeasurement, 2>>(
      [&] { return MeasurePair(first, second, threads, settings, observer); }, timeout_s,
      "benchmarking " + first.model_path + AtShapes(settings) + " on " + first.ep + " beside " +
          second.ep + " with " + std::to_string(threads) + " thread(s)");
}

}  // namespace onnxgate
