// The adapter protocol from onnxgate's side: requests, replies checked field by field, values as
// ONNX TensorProto / SequenceProto / OptionalProto bytes, and adapter processes per worker slot.
#include "runtime/adapter/adapter_runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "runtime/adapter/adapter_process.h"
#include "runtime/base/json_reader.h"
#include "runtime/base/safe_name.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// 2: every request carries an "id" that its reply echoes.
constexpr int kProtocolVersion = 2;
// Bounds on what a reply may list; far above any real runtime's.
constexpr size_t kMaxProviders = 64;
constexpr size_t kMaxListed = size_t{1} << 20;  // values, placements, claims, declines
constexpr size_t kMaxRank = 64;
constexpr size_t kMaxNameBytes = 4096;      // names and versions
constexpr size_t kMaxMessageBytes = 16384;  // an error's message, as far as it is quoted

std::vector<std::string> SplitCommand(const std::string& command) {
  std::vector<std::string> argv;
  std::istringstream in(command);
  std::string word;
  while (in >> word) argv.push_back(word);
  return argv;
}

// A reply's header as the one JSON reader reads it: errors read "<where>: <path>: <what>".
StatusOr<JsonObject> Reply(const Json& header, const std::string& where) {
  return JsonValue::Of(header, where).Object();
}

// A name, version or reason: a string of at most kMaxNameBytes.
StatusOr<std::string> Name(const JsonObject& o, std::string_view key) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue v, o.Get(key));
  return v.String(kMaxNameBytes);
}

// A provider or EP name from a reply: it may become a file name (a baseline, an expectations
// file), so it must pass the checks a name given on the command line passes.
StatusOr<std::string> ProviderName(const JsonValue& v) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string name, v.String(kMaxNameBytes));
  if (Status safe = CheckSafeName("provider", name); !safe.ok()) return v.Error(safe.message());
  return name;
}

StatusOr<VersionRange> Range(const JsonValue& j) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray range, j.Array(2));
  if (range.size() != 2) return j.TypeError("a version range [min, max]");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t min, range[0].Int());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t max, range[1].Int());
  if (min > max) return j.Error("a version range must be [min, max] with min <= max");
  return VersionRange{min, max};
}

// The element type a value's "dtype" gives, checked.
StatusOr<DataType> DtypeOf(const JsonObject& o) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue j, o.Get("dtype"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t dtype, j.Int());
  if (dtype < 0 || dtype > INT32_MAX || !IsValidDataType(static_cast<int32_t>(dtype))) {
    return j.Error("element type " + std::to_string(dtype) + " is not an ONNX type");
  }
  return static_cast<DataType>(dtype);
}

// A value's declared dims: sizes, symbol strings or null.
Status ReadDims(const JsonArray& dims, ValueInfo* info) {
  info->has_shape = true;
  return dims.ForEach([&](const JsonValue& d) -> Status {
    DeclaredDim& dim = info->dims.emplace_back();
    if (d.is_string()) {
      ONNXGATE_ASSIGN_OR_RETURN(dim.symbol, d.String(kMaxNameBytes));
    } else if (!d.is_null()) {
      if (!d.raw().is_number_integer()) return d.TypeError("a size, a symbol string or null");
      ONNXGATE_ASSIGN_OR_RETURN(dim.size, d.Int(0));
    }
    return OkStatus();
  });
}

StatusOr<std::vector<ValueInfo>> Infos(const JsonObject& reply, std::string_view key) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray list, reply.RequiredArray(key, kMaxListed));
  std::vector<ValueInfo> infos;
  ONNXGATE_RETURN_IF_ERROR(list.ForEachObject([&](const JsonObject& j) -> Status {
    ValueInfo& info = infos.emplace_back();
    ONNXGATE_ASSIGN_OR_RETURN(info.name, Name(j, "name"));
    ONNXGATE_ASSIGN_OR_RETURN(JsonValue kind, j.Get("kind"));
    ONNXGATE_ASSIGN_OR_RETURN(info.kind,
                              kind.Enum<Value::Kind>({{"tensor", Value::Kind::kTensor},
                                                      {"sequence", Value::Kind::kSequence},
                                                      {"optional", Value::Kind::kOptional}}));
    ONNXGATE_ASSIGN_OR_RETURN(info.elem_type, DtypeOf(j));
    if (!j.Has("dims")) return OkStatus();
    ONNXGATE_ASSIGN_OR_RETURN(JsonArray dims, j.RequiredArray("dims", kMaxRank));
    return ReadDims(dims, &info);
  }));
  return infos;
}

StatusOr<NodePlacement> Placement(const JsonObject& j) {
  NodePlacement p;
  ONNXGATE_ASSIGN_OR_RETURN(p.node_name, Name(j, "node"));
  ONNXGATE_ASSIGN_OR_RETURN(p.op_type, Name(j, "op_type"));
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue provider, j.Get("provider"));
  ONNXGATE_ASSIGN_OR_RETURN(p.provider, ProviderName(provider));
  if (j.Has("domain")) {
    ONNXGATE_ASSIGN_OR_RETURN(p.domain, Name(j, "domain"));
  }
  int64_t since = p.since_version;
  ONNXGATE_RETURN_IF_ERROR(j.ReadInt("since_version", 0, INT32_MAX, &since));
  p.since_version = static_cast<int>(since);
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray declines, j.OptionalArray("declines", kMaxListed));
  ONNXGATE_RETURN_IF_ERROR(declines.ForEachObject([&](const JsonObject& d) -> Status {
    DeclineReason& r = p.declines.emplace_back();
    ONNXGATE_ASSIGN_OR_RETURN(JsonValue declined, d.Get("provider"));
    ONNXGATE_ASSIGN_OR_RETURN(r.provider, ProviderName(declined));
    ONNXGATE_ASSIGN_OR_RETURN(r.reason, Name(d, "reason"));
    return OkStatus();
  }));
  return p;
}

StatusOr<std::vector<NodePlacement>> Placements(const JsonObject& reply) {
  std::vector<NodePlacement> placements;
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray list, reply.OptionalArray("placements", kMaxListed));
  ONNXGATE_RETURN_IF_ERROR(list.ForEachObject([&](const JsonObject& j) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(NodePlacement p, Placement(j));
    placements.push_back(std::move(p));
    return OkStatus();
  }));
  return placements;
}

// Whether the hello's optional "capabilities" (a list of the optional requests the adapter
// answers) names `capability`. Names this build does not know are ignored.
StatusOr<bool> OffersCapability(const JsonObject& hello, const std::string& capability) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray list, hello.OptionalArray("capabilities", kMaxProviders));
  bool offered = false;
  ONNXGATE_RETURN_IF_ERROR(list.ForEach([&](const JsonValue& c) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(std::string name, c.String(kMaxNameBytes));
    offered = offered || name == capability;
    return OkStatus();
  }));
  return offered;
}

// What the adapter said about itself in its hello.
struct AdapterFacts {
  std::string name;
  std::string version;
  AcceptedVersions accepted;
  std::vector<std::string> providers;
  std::map<std::string, int> max_threads;
  bool needs_case_isolation = false;  // the hello's "isolation": "case"
  // The hello's "unavailable": {provider: why it cannot run on this machine}.
  std::map<std::string, std::string> unavailable;
  bool offers_timed_runs = false;  // the hello's "capabilities" holds "timed_runs"
};

class AdapterRuntime;

class AdapterModel : public LoadedModel {
 public:
  AdapterModel(const AdapterRuntime* runtime, int64_t id, std::string path)
      : runtime_(runtime), id_(id), path_(std::move(path)) {}
  ~AdapterModel() override;

  std::vector<ValueInfo> inputs() const override { return inputs_; }
  std::vector<ValueInfo> outputs() const override { return outputs_; }
  std::map<std::string, std::string> metadata() const override { return metadata_; }
  std::vector<NodePlacement> placements() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return placements_;
  }
  StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const override;
  StatusOr<std::vector<double>> TimedRuns(const std::vector<NamedValue>& feeds,
                                          int64_t runs) const override;

  std::vector<ValueInfo> inputs_;
  std::vector<ValueInfo> outputs_;
  std::map<std::string, std::string> metadata_;

 private:
  const AdapterRuntime* runtime_;
  int64_t id_;
  std::string path_;
  mutable std::mutex mutex_;
  mutable std::vector<NodePlacement> placements_;
  friend class AdapterRuntime;
};

class AdapterRuntime : public RuntimeUnderTest {
 public:
  AdapterRuntime(std::string command, RuntimeOptions options, AdapterTimeouts timeouts)
      : command_(std::move(command)),
        argv_(SplitCommand(command_)),
        options_(std::move(options)),
        timeouts_(timeouts) {}

  // Starts the control adapter and keeps what its hello says.
  Status Start() {
    ONNXGATE_ASSIGN_OR_RETURN(control_, Launch());
    return OkStatus();
  }

  std::string Label() const { return "adapter '" + command_ + "'"; }

  std::string name() const override { return facts_.name; }
  std::string version() const override { return facts_.version; }
  AcceptedVersions accepted_versions() const override { return facts_.accepted; }
  std::vector<std::string> providers() const override { return facts_.providers; }
  bool NeedsCaseIsolation() const override { return facts_.needs_case_isolation; }
  bool OffersTimedRuns() const { return facts_.offers_timed_runs; }

  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                              const LoadOptions& options) const override {
    const std::string what = "loading " + model_path;
    Frame request;
    request.header = {{"op", "load"},
                      {"model_path", model_path},
                      {"providers", options.providers},
                      {"fallback", FallbackPolicyName(options.fallback)},
                      {"optimization_level", options.optimization_level},
                      {"intra_op_threads", options.intra_op_threads}};
    ONNXGATE_ASSIGN_OR_RETURN(Frame frame, Call(request, what));
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject reply, Reply(frame.header, Label() + ": " + what));
    int64_t id = 0;
    ONNXGATE_RETURN_IF_ERROR(reply.Require("model", &id));
    auto model = std::make_unique<AdapterModel>(this, id, model_path);
    ONNXGATE_ASSIGN_OR_RETURN(model->inputs_, Infos(reply, "inputs"));
    ONNXGATE_ASSIGN_OR_RETURN(model->outputs_, Infos(reply, "outputs"));
    ONNXGATE_ASSIGN_OR_RETURN(model->placements_, Placements(reply));
    // Metadata is informative: entries that are not strings are left out.
    std::optional<JsonValue> metadata = reply.Find("metadata");
    if (metadata && metadata->is_object() && metadata->raw().size() <= kMaxListed) {
      for (const auto& [key, value] : metadata->raw().items()) {
        if (value.is_string()) model->metadata_[key] = value.get_ref<const std::string&>();
      }
    }
    return std::unique_ptr<LoadedModel>(std::move(model));
  }

  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const override {
    if (!KnowsProvider(provider)) return UnknownProvider(provider);
    Frame request;
    request.header = {{"op", "claims"}, {"provider", provider}};
    const std::string what = "claims of provider '" + provider + "'";
    ONNXGATE_ASSIGN_OR_RETURN(Frame frame, Call(request, what));
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject reply, Reply(frame.header, Label() + ": " + what));
    ONNXGATE_ASSIGN_OR_RETURN(JsonArray list, reply.RequiredArray("claims", kMaxListed));
    std::vector<OpClaim> claims;
    ONNXGATE_RETURN_IF_ERROR(list.ForEachObject([&](const JsonObject& j) -> Status {
      OpClaim& c = claims.emplace_back();
      ONNXGATE_ASSIGN_OR_RETURN(c.domain, Name(j, "domain"));
      ONNXGATE_ASSIGN_OR_RETURN(c.op_type, Name(j, "op_type"));
      int64_t since = 0, until = 0;
      ONNXGATE_RETURN_IF_ERROR(j.Require("since_version", &since));
      ONNXGATE_RETURN_IF_ERROR(j.Require("until_version", &until));
      if (since < 0 || until < since || until > INT32_MAX) {
        return j.Error("claim of " + c.op_type + " for versions " + std::to_string(since) + " to " +
                       std::to_string(until) + " (expected 0 <= since_version <= until_version)");
      }
      c.since_version = static_cast<int>(since);
      c.until_version = static_cast<int>(until);
      return OkStatus();
    }));
    return claims;
  }

  Status ProviderAvailability(const std::string& provider) const override {
    auto it = facts_.unavailable.find(provider);
    return it == facts_.unavailable.end() ? OkStatus() : Unavailable(it->second);
  }

  StatusOr<int> MaxIntraOpThreads(const std::string& provider) const override {
    if (!KnowsProvider(provider)) return UnknownProvider(provider);
    auto it = facts_.max_threads.find(provider);
    return it == facts_.max_threads.end() ? 1 : it->second;
  }

  Status PrepareWorkerSlots(int count) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_.resize(static_cast<size_t>(count));
    slot_errors_.assign(static_cast<size_t>(count), "");
    for (auto& slot : slots_) {
      if (slot != nullptr && !slot->Ended()) continue;
      ONNXGATE_ASSIGN_OR_RETURN(slot, Launch());
    }
    return OkStatus();
  }

  void EnterWorkerSlot(int slot) const override { entered_slot_ = slot; }

  // Workers never start adapters (one a killed worker started would outlive it): the parent
  // starts the slot's adapter again here when it died or its worker was killed mid-request.
  bool LeaveWorkerSlot(int slot, bool clean) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (slot < 0 || static_cast<size_t>(slot) >= slots_.size()) return false;
    auto& process = slots_[static_cast<size_t>(slot)];
    // Killed mid-request, dead, or out of step: replace it.
    if (process != nullptr && (!clean || !process->Usable())) process->Kill();
    if (process != nullptr && !process->Ended()) return false;
    auto started = Launch();
    if (started.ok()) {
      process = std::move(started).value();
    } else {
      process.reset();  // the slot's next case says why
      slot_errors_[static_cast<size_t>(slot)] = started.status().message();
    }
    return true;
  }

  // Sends a request on this process's adapter (its slot's, or the control one), starting the
  // adapter again if it has ended (unless `restart` is false), and checks the reply's "ok".
  StatusOr<Frame> Call(const Frame& request, const std::string& what, bool restart = true) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<AdapterProcess>& process =
        entered_slot_ >= 0 && static_cast<size_t>(entered_slot_) < slots_.size()
            ? slots_[static_cast<size_t>(entered_slot_)]
            : control_;
    const bool in_slot = entered_slot_ >= 0 && static_cast<size_t>(entered_slot_) < slots_.size();
    if (process == nullptr || (!in_slot && !process->Usable()) || process->Ended()) {
      if (!restart) return Unavailable(Label() + ": " + what + ": the adapter has ended");
      if (in_slot) {
        const std::string& why = slot_errors_[static_cast<size_t>(entered_slot_)];
        return Aborted(Label() + ": " + what + ": this worker's adapter is not running" +
                       (why.empty() ? std::string() : " (" + why + ")"));
      }
      auto started = Launch();
      if (!started.ok()) return started.status().WithContext(Label() + ": " + what);
      process = std::move(started).value();
    }
    const std::string where = Label() + ": " + what;
    // A worker's request is bounded by the worker's own limit (the case is TIMEOUT); the
    // runtime's own requests by the control deadline.
    const auto limit = in_slot
                           ? std::chrono::duration_cast<std::chrono::milliseconds>(timeouts_.call)
                           : timeouts_.control;
    const auto deadline = Clock::now() + limit;
    auto reply = process->Call(request, deadline);
    if (!reply.ok()) {
      if (reply.status().code() == StatusCode::kInvalidArgument) {  // not sent: not encodable
        return InvalidArgument(where + ": " + reply.status().message());
      }
      if (reply.status().code() == StatusCode::kDataLoss) {
        return Internal(where + ": " + reply.status().message());
      }
      if (Clock::now() >= deadline) {
        return Aborted(where + ": no answer within " + Seconds(limit) + " (the deadline of " +
                       (in_slot ? std::string("a worker's request")
                                : std::string("the runtime's own requests: --timeout, or ") +
                                      Seconds(kDefaultAdapterControlTimeout) + " without it") +
                       "); the adapter was ended");
      }
      return Aborted(where + ": the adapter " + process->EndDescription() + ": " +
                     reply.status().message());
    }
    return CheckOk(std::move(reply).value(), where);
  }

 private:
  static std::string Seconds(std::chrono::milliseconds ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", static_cast<double>(ms.count()) / 1000.0);
    return buf;
  }

  // The reply's "ok", and for a failure its "code" and "message" as a Status. Every field is
  // type-checked; a message is quoted up to kMaxMessageBytes. The code crosses by name
  // (StatusCodeFromName); ABORTED is onnxgate's own word for an adapter that died, not one an
  // adapter may send.
  StatusOr<Frame> CheckOk(Frame frame, const std::string& where) const {
    auto ok = frame.header.find("ok");
    if (ok == frame.header.end() || !ok->is_boolean()) {
      return Internal(where + ": the reply has no boolean 'ok' (not the protocol): " +
                      QuoteBytes(frame.header_start));
    }
    if (ok->get<bool>()) return frame;
    std::string code, message;
    Status fields = [&]() -> Status {
      ONNXGATE_ASSIGN_OR_RETURN(JsonObject reply, Reply(frame.header, where + ": failed"));
      ONNXGATE_RETURN_IF_ERROR(reply.Read("code", &code));
      return reply.Read("message", &message);
    }();
    if (!fields.ok()) return Internal(fields.message() + " (a fault of the adapter)");
    if (message.size() > kMaxMessageBytes) {
      message = message.substr(0, kMaxMessageBytes) + "... (" + std::to_string(message.size()) +
                " bytes in all)";
    }
    const std::optional<StatusCode> status_code = StatusCodeFromName(code);
    if (!status_code || *status_code == StatusCode::kAborted) {
      return Internal(where + ": failed with code " + QuoteBytes(code, 64) +
                      ", which the protocol does not define: " + message);
    }
    if (message.empty()) {
      return Internal(where + ": failed with " + code + " and no message (a fault of the adapter)");
    }
    return Status(*status_code, where + ": " + message);
  }

  bool KnowsProvider(const std::string& provider) const {
    for (const std::string& p : facts_.providers) {
      if (p == provider) return true;
    }
    return false;
  }

  Status UnknownProvider(const std::string& provider) const {
    std::string known;
    for (const std::string& p : facts_.providers) known += (known.empty() ? "" : ", ") + p;
    return InvalidArgument("unknown execution provider '" + provider + "'; " + Label() +
                           " offers: " + known);
  }

  // Starts one adapter process and says hello. The first hello sets the facts; later ones
  // must agree with them.
  StatusOr<std::unique_ptr<AdapterProcess>> Launch() const {
    auto process = AdapterProcess::Start(argv_);
    if (!process.ok()) return process.status().WithContext(Label());
    Frame hello;
    hello.header = {{"op", "hello"}, {"protocol", kProtocolVersion}, {"options", options_}};
    auto reply = (*process)->Call(hello, Clock::now() + timeouts_.hello, ReplyId::kMayBeMissing);
    if (!reply.ok()) {
      if (reply.status().code() == StatusCode::kDataLoss ||
          reply.status().code() == StatusCode::kInvalidArgument) {
        return Status(reply.status().code(), Label() + ": hello: " + reply.status().message());
      }
      return Unavailable(Label() + ": the adapter " + (*process)->EndDescription() +
                         " before answering hello (" + reply.status().message() + ")");
    }
    const std::string where = Label() + ": hello";
    ONNXGATE_ASSIGN_OR_RETURN(Frame ok, CheckOk(std::move(reply).value(), where));
    ONNXGATE_ASSIGN_OR_RETURN(AdapterFacts facts, ReadFacts(ok.header, where));
    if (!ok.header.contains("id")) {  // ReadFacts has checked the version: now it must echo ids
      return Status(StatusCode::kDataLoss, where + ": the reply carries no 'id' (protocol " +
                                               std::to_string(kProtocolVersion) +
                                               " echoes each request's id)");
    }
    if (facts_.name.empty()) {
      facts_ = std::move(facts);
    } else if (facts.name != facts_.name || facts.version != facts_.version) {
      return InvalidArgument(where + ": a new adapter process says it is " + facts.name + " " +
                             facts.version + ", the first said " + facts_.name + " " +
                             facts_.version);
    }
    return std::move(process).value();
  }

  static StatusOr<AdapterFacts> ReadFacts(const Json& header, const std::string& where) {
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject h, Reply(header, where));
    AdapterFacts facts;
    int64_t protocol = 0;
    ONNXGATE_RETURN_IF_ERROR(h.Require("protocol", &protocol));
    if (protocol != kProtocolVersion) {
      return InvalidArgument(where + ": the adapter speaks protocol version " +
                             std::to_string(protocol) + "; this build speaks version " +
                             std::to_string(kProtocolVersion));
    }
    ONNXGATE_ASSIGN_OR_RETURN(facts.name, Name(h, "name"));
    ONNXGATE_ASSIGN_OR_RETURN(facts.version, Name(h, "version"));
    ONNXGATE_ASSIGN_OR_RETURN(JsonValue ir, h.Get("ir"));
    ONNXGATE_ASSIGN_OR_RETURN(facts.accepted.ir, Range(ir));
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject opsets, h.RequiredObject("opsets"));
    if (opsets.value().raw().size() > kMaxListed) return opsets.Error("too many domains");
    ONNXGATE_RETURN_IF_ERROR(
        opsets.ForEachMember([&](const std::string& domain, const JsonValue& range) -> Status {
          if (domain.size() > kMaxNameBytes) return range.Error("a domain name too long");
          ONNXGATE_ASSIGN_OR_RETURN(facts.accepted.opsets[domain], Range(range));
          return OkStatus();
        }));
    ONNXGATE_ASSIGN_OR_RETURN(JsonArray providers, h.RequiredArray("providers", kMaxProviders));
    if (providers.size() == 0) return providers.value().TypeError("a non-empty array of names");
    ONNXGATE_RETURN_IF_ERROR(providers.ForEach([&](const JsonValue& p) -> Status {
      ONNXGATE_ASSIGN_OR_RETURN(std::string name, ProviderName(p));
      facts.providers.push_back(std::move(name));
      return OkStatus();
    }));
    ONNXGATE_RETURN_IF_ERROR(
        h.ReadEnum("isolation", {{"worker", false}, {"case", true}}, &facts.needs_case_isolation));
    ONNXGATE_RETURN_IF_ERROR(ReadUnavailable(h, &facts));
    ONNXGATE_ASSIGN_OR_RETURN(facts.offers_timed_runs, OffersCapability(h, "timed_runs"));
    std::optional<JsonValue> max_threads = h.Find("max_threads");
    if (!max_threads || !max_threads->is_object()) return facts;
    ONNXGATE_RETURN_IF_ERROR(max_threads->Object()->ForEachMember(
        [&](const std::string& provider, const JsonValue& n) -> Status {
          if (std::find(facts.providers.begin(), facts.providers.end(), provider) ==
              facts.providers.end()) {
            return OkStatus();  // a provider it does not offer is never asked about
          }
          ONNXGATE_ASSIGN_OR_RETURN(int64_t threads, n.Int(1, 4096));
          facts.max_threads[provider] = static_cast<int>(threads);
          return OkStatus();
        }));
    return facts;
  }

  // The hello's optional "unavailable": {provider: reason}, each provider one of its providers
  // and each reason a non-empty string.
  static Status ReadUnavailable(const JsonObject& h, AdapterFacts* facts) {
    std::optional<JsonValue> unavailable = h.Find("unavailable");
    if (!unavailable) return OkStatus();
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject reasons, unavailable->Object());
    return reasons.ForEachMember([&](const std::string& provider, const JsonValue& why) -> Status {
      if (std::find(facts->providers.begin(), facts->providers.end(), provider) ==
          facts->providers.end()) {
        return why.Error("provider '" + provider + "' is not one of the hello's providers");
      }
      ONNXGATE_ASSIGN_OR_RETURN(std::string reason, why.NonEmptyString(kMaxNameBytes));
      facts->unavailable[provider] = std::move(reason);
      return OkStatus();
    });
  }

  std::string command_;
  std::vector<std::string> argv_;
  RuntimeOptions options_;
  AdapterTimeouts timeouts_;
  mutable AdapterFacts facts_;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<AdapterProcess> control_;
  mutable std::vector<std::unique_ptr<AdapterProcess>> slots_;
  mutable std::vector<std::string> slot_errors_;  // why a slot's adapter could not start again
  mutable int entered_slot_ = -1;
};

AdapterModel::~AdapterModel() {
  Frame request;
  request.header = {{"op", "unload"}, {"model", id_}};
  (void)runtime_->Call(request, "unloading " + path_, /*restart=*/false);
}

// One output of a run reply: its value from the blob it names, typed by the header's "dtype" when
// the value has no element to carry its type (an empty sequence or optional).
StatusOr<Value> ReadOutput(const JsonValue& j, const std::vector<std::string>& blobs,
                           const std::string& name, const std::string& where) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject o, j.Object());
  std::string kind;
  int64_t blob = 0, dtype_code = 0;
  ONNXGATE_RETURN_IF_ERROR(o.Require("kind", &kind));
  ONNXGATE_RETURN_IF_ERROR(o.Require("blob", &blob));
  ONNXGATE_RETURN_IF_ERROR(o.Read("dtype", &dtype_code));  // 0: not given
  const std::string output = where + ": output '" + name + "'";
  if (blob < 0 || static_cast<size_t>(blob) >= blobs.size()) {
    return Internal(output + ": blob " + std::to_string(blob) + " of " +
                    std::to_string(blobs.size()));
  }
  auto value = ParseValueProto(blobs[static_cast<size_t>(blob)], kind, output, nullptr);
  if (!value.ok()) return Internal(value.status().message());
  Value v = std::move(value).value();
  DataType dtype = DataType::kUndefined;
  if (dtype_code != 0) {
    ONNXGATE_ASSIGN_OR_RETURN(dtype, DtypeOf(o));
  }
  if (v.elem_type() == DataType::kUndefined && dtype != DataType::kUndefined) {
    if (v.is_sequence()) v = Value::FromSequence(dtype, {});
    if (v.is_optional() && !v.has_value()) {
      v = Value::OptionalNone(v.optional_inner_kind(), dtype);
    }
  }
  return v;
}

// Adds the request's "feeds" and their blobs.
void AddFeeds(const std::vector<NamedValue>& feeds, Frame* request) {
  Json encoded = Json::array();
  for (const NamedValue& feed : feeds) {
    std::string kind;
    request->blobs.push_back(SerializeValueProto(feed.value, feed.name, &kind));
    encoded.push_back({{"name", feed.name},
                       {"kind", kind},
                       {"dtype", static_cast<int>(feed.value.elem_type())},
                       {"blob", request->blobs.size() - 1}});
  }
  request->header["feeds"] = encoded;
}

StatusOr<std::vector<Value>> AdapterModel::Run(const std::vector<NamedValue>& feeds) const {
  const std::string what = "running " + path_;
  Frame request;
  request.header = {{"op", "run"}, {"model", id_}};
  AddFeeds(feeds, &request);
  ONNXGATE_ASSIGN_OR_RETURN(Frame frame, runtime_->Call(request, what));
  const std::string where = runtime_->Label() + ": " + what;
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject reply, Reply(frame.header, where));
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray outputs, reply.RequiredArray("outputs", kMaxListed));
  if (outputs.size() != outputs_.size()) {
    return Internal(where + ": returned " + std::to_string(outputs.size()) +
                    " outputs; the model has " + std::to_string(outputs_.size()));
  }
  std::vector<Value> values;
  for (size_t i = 0; i < outputs.size(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(Value v,
                              ReadOutput(outputs[i], frame.blobs, outputs_[i].name, where));
    values.push_back(std::move(v));
  }
  if (reply.Has("placements")) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<NodePlacement> placed, Placements(reply));
    std::lock_guard<std::mutex> lock(mutex_);
    placements_ = std::move(placed);
  }
  return values;
}

// A timed_runs reply's "times_ms": `runs` times, each a finite number >= 0. Its "clock" (the
// adapter's name for the clock it read, e.g. "perf_counter") must be a string.
StatusOr<std::vector<double>> ReadTimes(const JsonObject& reply, int64_t runs) {
  ONNXGATE_RETURN_IF_ERROR(Name(reply, "clock").status());
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray list, reply.RequiredArray("times_ms", kMaxListed));
  if (static_cast<int64_t>(list.size()) != runs) {
    return list.value().Error("holds " + std::to_string(list.size()) + " times for " +
                              std::to_string(runs) + " runs");
  }
  std::vector<double> times;
  ONNXGATE_RETURN_IF_ERROR(list.ForEach([&](const JsonValue& t) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(double ms, t.Number());
    if (!std::isfinite(ms) || ms < 0.0) return t.Error("a run's time must be a number >= 0");
    times.push_back(ms);
    return OkStatus();
  }));
  return times;
}

StatusOr<std::vector<double>> AdapterModel::TimedRuns(const std::vector<NamedValue>& feeds,
                                                      int64_t runs) const {
  if (!runtime_->OffersTimedRuns()) return Unimplemented("timed runs are not offered");
  const std::string what = "timing runs of " + path_;
  if (runs < 1 || static_cast<uint64_t>(runs) > kMaxListed) {
    return InvalidArgument(runtime_->Label() + ": " + what + ": runs must be 1 to " +
                           std::to_string(kMaxListed) + ", got " + std::to_string(runs));
  }
  Frame request;
  request.header = {{"op", "timed_runs"}, {"model", id_}, {"runs", runs}};
  AddFeeds(feeds, &request);
  ONNXGATE_ASSIGN_OR_RETURN(Frame frame, runtime_->Call(request, what));
  const std::string where = runtime_->Label() + ": " + what;
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject reply, Reply(frame.header, where));
  auto times = ReadTimes(reply, runs);
  if (!times.ok()) return Internal(times.status().message() + " (a fault of the adapter)");
  return times;
}

}  // namespace

AdapterTimeouts AdapterTimeoutsFor(double case_timeout_seconds) {
  AdapterTimeouts timeouts;
  if (case_timeout_seconds > 0 && case_timeout_seconds < 1e9) {
    timeouts.control =
        std::chrono::milliseconds(static_cast<int64_t>(std::ceil(case_timeout_seconds * 1000.0)));
  }
  return timeouts;
}

StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateAdapterRuntime(const std::string& command,
                                                                 const RuntimeOptions& options,
                                                                 AdapterTimeouts timeouts) {
  if (SplitCommand(command).empty()) return InvalidArgument("adapter: an empty command");
  auto runtime = std::make_unique<AdapterRuntime>(command, options, timeouts);
  ONNXGATE_RETURN_IF_ERROR(runtime->Start());
  return std::unique_ptr<RuntimeUnderTest>(std::move(runtime));
}

}  // namespace onnxgate
