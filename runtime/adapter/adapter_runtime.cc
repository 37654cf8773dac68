// The adapter protocol from onnxgate's side: requests, replies checked field by field, values as
// ONNX TensorProto / SequenceProto / OptionalProto bytes, and adapter processes per worker slot.
#include "runtime/adapter/adapter_runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "runtime/adapter/adapter_process.h"
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

StatusCode CodeFromName(const std::string& name, bool* known) {
  *known = true;
  if (name == "INVALID_ARGUMENT") return StatusCode::kInvalidArgument;
  if (name == "DATA_LOSS") return StatusCode::kDataLoss;
  if (name == "NOT_FOUND") return StatusCode::kNotFound;
  if (name == "UNIMPLEMENTED") return StatusCode::kUnimplemented;
  if (name == "UNAVAILABLE") return StatusCode::kUnavailable;
  if (name == "INTERNAL") return StatusCode::kInternal;
  *known = false;
  return StatusCode::kInternal;
}

// Field readers that say what is wrong with a reply.
Status Missing(const std::string& what, const std::string& key, const std::string& expected) {
  return InvalidArgument(what + ": the reply's '" + key + "' is missing or not " + expected);
}

StatusOr<std::string> Str(const Json& j, const std::string& key, const std::string& what) {
  if (!j.is_object()) return Missing(what, key, "a string (in an object)");
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return Missing(what, key, "a string");
  const std::string& s = it->get_ref<const std::string&>();
  if (s.size() > kMaxNameBytes) {
    return InvalidArgument(what + ": the reply's '" + key + "' is " + std::to_string(s.size()) +
                           " bytes (at most " + std::to_string(kMaxNameBytes) + ")");
  }
  return s;
}

StatusOr<int64_t> Int(const Json& j, const std::string& key, const std::string& what) {
  if (!j.is_object()) return Missing(what, key, "an integer (in an object)");
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer() ||
      (it->is_number_unsigned() && it->get<uint64_t>() > uint64_t{INT64_MAX})) {
    return Missing(what, key, "an integer");
  }
  return it->get<int64_t>();
}

// The array at `key` with at most `max` elements; `optional` allows it to be absent (null).
StatusOr<const Json*> List(const Json& j, const std::string& key, size_t max,
                           const std::string& what, bool optional = false) {
  auto it = j.find(key);
  if (it == j.end() && optional) return nullptr;
  if (it == j.end() || !it->is_array()) return Missing(what, key, "an array");
  if (it->size() > max) {
    return InvalidArgument(what + ": the reply's '" + key + "' lists " +
                           std::to_string(it->size()) + " entries (at most " + std::to_string(max) +
                           ")");
  }
  return &*it;
}

// A provider or EP name from a reply: it may become a file name (a baseline, an expectations
// file), so it must pass the checks a name given on the command line passes.
StatusOr<std::string> ProviderName(const Json& j, const std::string& key, const std::string& what) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string name, Str(j, key, what));
  if (Status safe = CheckSafeName("provider", name); !safe.ok()) {
    return InvalidArgument(what + ": the reply's '" + key + "': " + safe.message());
  }
  return name;
}

StatusOr<VersionRange> Range(const Json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer() ||
      j[0].get<int64_t>() > j[1].get<int64_t>()) {
    return InvalidArgument(what + ": a version range must be [min, max] with min <= max");
  }
  return VersionRange{j[0].get<int64_t>(), j[1].get<int64_t>()};
}

StatusOr<Value::Kind> KindOf(const std::string& name, const std::string& what) {
  if (name == "tensor") return Value::Kind::kTensor;
  if (name == "sequence") return Value::Kind::kSequence;
  if (name == "optional") return Value::Kind::kOptional;
  return InvalidArgument(what + ": value kind '" + name + "' is not tensor, sequence or optional");
}

// The element type a value's "dtype" gives, checked.
StatusOr<DataType> DtypeOf(const Json& j, const std::string& name, const std::string& what) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t dtype, Int(j, "dtype", what + ": '" + name + "'"));
  if (dtype < 0 || dtype > INT32_MAX || !IsValidDataType(static_cast<int32_t>(dtype))) {
    return InvalidArgument(what + ": '" + name + "' has element type " + std::to_string(dtype) +
                           ", not an ONNX type");
  }
  return static_cast<DataType>(dtype);
}

StatusOr<std::vector<ValueInfo>> Infos(const Json& reply, const std::string& key,
                                       const std::string& what) {
  ONNXGATE_ASSIGN_OR_RETURN(const Json* list, List(reply, key, kMaxListed, what));
  std::vector<ValueInfo> infos;
  for (const Json& j : *list) {
    if (!j.is_object()) return Missing(what, key + "[]", "an object");
    ValueInfo info;
    ONNXGATE_ASSIGN_OR_RETURN(info.name, Str(j, "name", what));
    ONNXGATE_ASSIGN_OR_RETURN(std::string kind, Str(j, "kind", what));
    ONNXGATE_ASSIGN_OR_RETURN(info.kind, KindOf(kind, what));
    ONNXGATE_ASSIGN_OR_RETURN(info.elem_type, DtypeOf(j, info.name, what));
    const std::string dims_of = what + ": '" + info.name + "'";
    ONNXGATE_ASSIGN_OR_RETURN(const Json* dims, List(j, "dims", kMaxRank, dims_of, true));
    if (dims != nullptr) {
      info.has_shape = true;
      for (const Json& d : *dims) {
        DeclaredDim dim;
        if (d.is_number_integer() && d.get<int64_t>() >= 0 &&
            !(d.is_number_unsigned() && d.get<uint64_t>() > uint64_t{INT64_MAX})) {
          dim.size = d.get<int64_t>();
        } else if (d.is_string() && d.get_ref<const std::string&>().size() <= kMaxNameBytes) {
          dim.symbol = d.get<std::string>();
        } else if (!d.is_null()) {
          return Missing(dims_of, "dims[]", "a size, a symbol string or null");
        }
        info.dims.push_back(dim);
      }
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

StatusOr<std::vector<NodePlacement>> Placements(const Json& reply, const std::string& what) {
  std::vector<NodePlacement> placements;
  ONNXGATE_ASSIGN_OR_RETURN(const Json* list,
                            List(reply, "placements", kMaxListed, what, /*optional=*/true));
  if (list == nullptr) return placements;
  for (const Json& j : *list) {
    if (!j.is_object()) return Missing(what, "placements[]", "an object");
    NodePlacement p;
    ONNXGATE_ASSIGN_OR_RETURN(p.node_name, Str(j, "node", what));
    ONNXGATE_ASSIGN_OR_RETURN(p.op_type, Str(j, "op_type", what));
    ONNXGATE_ASSIGN_OR_RETURN(p.provider, ProviderName(j, "provider", what + ": placements[]"));
    if (j.contains("domain")) {
      ONNXGATE_ASSIGN_OR_RETURN(p.domain, Str(j, "domain", what));
    }
    if (j.contains("since_version")) {
      ONNXGATE_ASSIGN_OR_RETURN(int64_t since, Int(j, "since_version", what));
      if (since < 0 || since > INT32_MAX) return Missing(what, "since_version", "an opset");
      p.since_version = static_cast<int>(since);
    }
    ONNXGATE_ASSIGN_OR_RETURN(const Json* declines,
                              List(j, "declines", kMaxListed, what, /*optional=*/true));
    if (declines != nullptr) {
      for (const Json& d : *declines) {
        DeclineReason r;
        ONNXGATE_ASSIGN_OR_RETURN(r.provider, ProviderName(d, "provider", what + ": declines[]"));
        ONNXGATE_ASSIGN_OR_RETURN(r.reason, Str(d, "reason", what));
        p.declines.push_back(std::move(r));
      }
    }
    placements.push_back(std::move(p));
  }
  return placements;
}

// What the adapter said about itself in its hello.
struct AdapterFacts {
  std::string name;
  std::string version;
  AcceptedVersions accepted;
  std::vector<std::string> providers;
  std::map<std::string, int> max_threads;
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
    ONNXGATE_ASSIGN_OR_RETURN(Frame reply, Call(request, what));
    const std::string where = Label() + ": " + what;
    ONNXGATE_ASSIGN_OR_RETURN(int64_t id, Int(reply.header, "model", where));
    auto model = std::make_unique<AdapterModel>(this, id, model_path);
    ONNXGATE_ASSIGN_OR_RETURN(model->inputs_, Infos(reply.header, "inputs", where));
    ONNXGATE_ASSIGN_OR_RETURN(model->outputs_, Infos(reply.header, "outputs", where));
    ONNXGATE_ASSIGN_OR_RETURN(model->placements_, Placements(reply.header, where));
    auto metadata = reply.header.find("metadata");
    if (metadata != reply.header.end() && metadata->is_object() && metadata->size() <= kMaxListed) {
      for (const auto& [key, value] : metadata->items()) {
        if (value.is_string()) model->metadata_[key] = value.get<std::string>();
      }
    }
    return std::unique_ptr<LoadedModel>(std::move(model));
  }

  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const override {
    if (!KnowsProvider(provider)) return UnknownProvider(provider);
    Frame request;
    request.header = {{"op", "claims"}, {"provider", provider}};
    const std::string what = "claims of provider '" + provider + "'";
    ONNXGATE_ASSIGN_OR_RETURN(Frame reply, Call(request, what));
    const std::string where = Label() + ": " + what;
    ONNXGATE_ASSIGN_OR_RETURN(const Json* list, List(reply.header, "claims", kMaxListed, where));
    std::vector<OpClaim> claims;
    for (const Json& j : *list) {
      OpClaim c;
      ONNXGATE_ASSIGN_OR_RETURN(c.domain, Str(j, "domain", where));
      ONNXGATE_ASSIGN_OR_RETURN(c.op_type, Str(j, "op_type", where));
      ONNXGATE_ASSIGN_OR_RETURN(int64_t since, Int(j, "since_version", where));
      ONNXGATE_ASSIGN_OR_RETURN(int64_t until, Int(j, "until_version", where));
      if (since < 0 || until < since || until > INT32_MAX) {
        return InvalidArgument(where + ": claim of " + c.op_type + " for versions " +
                               std::to_string(since) + " to " + std::to_string(until) +
                               " (expected 0 <= since_version <= until_version)");
      }
      c.since_version = static_cast<int>(since);
      c.until_version = static_cast<int>(until);
      claims.push_back(std::move(c));
    }
    return claims;
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
  void LeaveWorkerSlot(int slot, bool clean) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (slot < 0 || static_cast<size_t>(slot) >= slots_.size()) return;
    auto& process = slots_[static_cast<size_t>(slot)];
    // Killed mid-request, dead, or out of step: replace it.
    if (process != nullptr && (!clean || !process->Usable())) process->Kill();
    if (process != nullptr && !process->Ended()) return;
    auto started = Launch();
    if (started.ok()) {
      process = std::move(started).value();
    } else {
      process.reset();  // the slot's next case says why
      slot_errors_[static_cast<size_t>(slot)] = started.status().message();
    }
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
  // type-checked; a message is quoted up to kMaxMessageBytes.
  StatusOr<Frame> CheckOk(Frame reply, const std::string& where) const {
    auto ok = reply.header.find("ok");
    if (ok == reply.header.end() || !ok->is_boolean()) {
      return Internal(where + ": the reply has no boolean 'ok' (not the protocol): " +
                      QuoteBytes(reply.header_start));
    }
    if (ok->get<bool>()) return reply;
    std::string code, message;
    for (auto [key, value] : {std::pair{"code", &code}, std::pair{"message", &message}}) {
      auto it = reply.header.find(key);
      if (it == reply.header.end()) continue;
      if (!it->is_string()) {
        return Internal(where + ": failed, and the reply's '" + key + "' is a JSON " +
                        it->type_name() + ", not a string (a fault of the adapter)");
      }
      *value = it->get<std::string>();
    }
    if (message.size() > kMaxMessageBytes) {
      message = message.substr(0, kMaxMessageBytes) + "... (" + std::to_string(message.size()) +
                " bytes in all)";
    }
    bool known = false;
    const StatusCode status_code = CodeFromName(code, &known);
    if (!known) {
      return Internal(where + ": failed with code " + QuoteBytes(code, 64) +
                      ", which the protocol does not define: " + message);
    }
    if (message.empty()) {
      return Internal(where + ": failed with " + code + " and no message (a fault of the adapter)");
    }
    return Status(status_code, where + ": " + message);
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

  static StatusOr<AdapterFacts> ReadFacts(const Json& h, const std::string& where) {
    AdapterFacts facts;
    ONNXGATE_ASSIGN_OR_RETURN(int64_t protocol, Int(h, "protocol", where));
    if (protocol != kProtocolVersion) {
      return InvalidArgument(where + ": the adapter speaks protocol version " +
                             std::to_string(protocol) + "; this build speaks version " +
                             std::to_string(kProtocolVersion));
    }
    ONNXGATE_ASSIGN_OR_RETURN(facts.name, Str(h, "name", where));
    ONNXGATE_ASSIGN_OR_RETURN(facts.version, Str(h, "version", where));
    if (!h.contains("ir")) return Missing(where, "ir", "[min, max]");
    ONNXGATE_ASSIGN_OR_RETURN(facts.accepted.ir, Range(h["ir"], where + ": ir"));
    if (!h.contains("opsets") || !h["opsets"].is_object() || h["opsets"].size() > kMaxListed) {
      return Missing(where, "opsets", "an object of [min, max] per domain");
    }
    for (const auto& [domain, range] : h["opsets"].items()) {
      if (domain.size() > kMaxNameBytes) return Missing(where, "opsets", "of domain names");
      ONNXGATE_ASSIGN_OR_RETURN(facts.accepted.opsets[domain],
                                Range(range, where + ": opsets." + domain));
    }
    ONNXGATE_ASSIGN_OR_RETURN(const Json* providers, List(h, "providers", kMaxProviders, where));
    if (providers->empty()) return Missing(where, "providers", "a non-empty array of names");
    for (const Json& p : *providers) {
      if (!p.is_string()) return Missing(where, "providers[]", "a string");
      const std::string& name = p.get_ref<const std::string&>();
      if (Status safe = CheckSafeName("provider", name); !safe.ok()) {
        return InvalidArgument(where + ": the reply's 'providers': " + safe.message());
      }
      facts.providers.push_back(name);
    }
    if (h.contains("max_threads") && h["max_threads"].is_object()) {
      for (const auto& [provider, n] : h["max_threads"].items()) {
        if (std::find(facts.providers.begin(), facts.providers.end(), provider) ==
            facts.providers.end()) {
          continue;  // a provider it does not offer is never asked about
        }
        if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > 4096) {
          return Missing(where, "max_threads." + provider, "an integer in [1, 4096]");
        }
        facts.max_threads[provider] = n.get<int>();
      }
    }
    return facts;
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

StatusOr<std::vector<Value>> AdapterModel::Run(const std::vector<NamedValue>& feeds) const {
  const std::string what = "running " + path_;
  Frame request;
  request.header = {{"op", "run"}, {"model", id_}};
  Json encoded = Json::array();
  for (const NamedValue& feed : feeds) {
    std::string kind;
    request.blobs.push_back(SerializeValueProto(feed.value, feed.name, &kind));
    encoded.push_back({{"name", feed.name},
                       {"kind", kind},
                       {"dtype", static_cast<int>(feed.value.elem_type())},
                       {"blob", request.blobs.size() - 1}});
  }
  request.header["feeds"] = encoded;
  ONNXGATE_ASSIGN_OR_RETURN(Frame reply, runtime_->Call(request, what));
  const std::string where = runtime_->Label() + ": " + what;
  auto it = reply.header.find("outputs");
  if (it == reply.header.end() || !it->is_array()) return Missing(where, "outputs", "an array");
  if (it->size() != outputs_.size()) {
    return Internal(where + ": returned " + std::to_string(it->size()) +
                    " outputs; the model has " + std::to_string(outputs_.size()));
  }
  std::vector<Value> values;
  for (size_t i = 0; i < it->size(); ++i) {
    const Json& j = (*it)[i];
    const std::string output = where + ": output '" + outputs_[i].name + "'";
    if (!j.is_object()) return Missing(output, "outputs[]", "an object");
    ONNXGATE_ASSIGN_OR_RETURN(std::string kind, Str(j, "kind", output));
    ONNXGATE_ASSIGN_OR_RETURN(int64_t blob, Int(j, "blob", output));
    if (blob < 0 || static_cast<size_t>(blob) >= reply.blobs.size()) {
      return Internal(output + ": blob " + std::to_string(blob) + " of " +
                      std::to_string(reply.blobs.size()));
    }
    auto value = ParseValueProto(reply.blobs[static_cast<size_t>(blob)], kind, output, nullptr);
    if (!value.ok()) return Internal(value.status().message());
    Value v = std::move(value).value();
    // An empty sequence or optional has no element to carry its type: the header says it.
    DataType dtype = DataType::kUndefined;
    if (j.contains("dtype")) {  // 0: not given
      ONNXGATE_ASSIGN_OR_RETURN(int64_t code, Int(j, "dtype", output));
      if (code != 0) {
        ONNXGATE_ASSIGN_OR_RETURN(dtype, DtypeOf(j, outputs_[i].name, where));
      }
    }
    if (v.elem_type() == DataType::kUndefined && dtype != DataType::kUndefined) {
      if (v.is_sequence()) v = Value::FromSequence(dtype, {});
      if (v.is_optional() && !v.has_value()) {
        v = Value::OptionalNone(v.optional_inner_kind(), dtype);
      }
    }
    values.push_back(std::move(v));
  }
  if (reply.header.contains("placements")) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<NodePlacement> placed, Placements(reply.header, where));
    std::lock_guard<std::mutex> lock(mutex_);
    placements_ = std::move(placed);
  }
  return values;
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
