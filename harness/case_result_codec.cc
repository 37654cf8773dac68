// CaseResult <-> the worker's binary result frame, decoded with every length checked.
#include "harness/case_result_codec.h"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

#include "runtime/base/byte_frame.h"
#include "runtime/base/utf8.h"

namespace onnxgate {

namespace {

constexpr char kMagic[4] = {'O', 'G', 'R', '1'};
constexpr char kOkName[] = "OK";

// The smallest encoding of one element of each list, so that a count is refused before anything
// is reserved when the bytes left cannot hold that many elements.
constexpr size_t kMinStringBytes = 8;
constexpr size_t kMinEntryBytes = 16;      // a string and an int64
constexpr size_t kMinPlacementBytes = 40;  // four strings and a count
constexpr size_t kMinDeclineBytes = 16;    // two strings
constexpr size_t kMinFallbackBytes = 25;   // three strings and a boolean
constexpr size_t kMinMetricBytes = 34;     // a string, three doubles and two bools
// Six strings, three lists, six integers or doubles of 8 bytes, four more doubles and a boolean.
constexpr size_t kMinOutputBytes = 15 * 8 + 4 * 8 + 1;

// The frame's lists and maps, over the shared byte frame.
class Writer : public ByteWriter {
 public:
  void Strings(const std::vector<std::string>& list) {
    U64(list.size());
    for (const std::string& s : list) String(s);
  }
  void Ints(const std::vector<int64_t>& list) {
    U64(list.size());
    for (int64_t v : list) I64(v);
  }
  void IntMap(const std::map<std::string, int64_t>& map) {
    U64(map.size());
    for (const auto& [key, value] : map) {
      String(key);
      I64(value);
    }
  }
};

// `text` as valid UTF-8: itself when it is, else with invalid sequences replaced by U+FFFD the
// way the JSON report's writer replaces them (the reports then show what they showed when the
// result came back as JSON).
std::string ValidUtf8(std::string text) {
  for (size_t pos = 0, length = 0; pos < text.size(); pos += length) {
    if (DecodeUtf8At(text, pos, &length) != kInvalidUtf8) continue;
    const std::string quoted =
        nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const nlohmann::json back = nlohmann::json::parse(quoted, nullptr, false);
    return back.is_string() ? back.get_ref<const std::string&>() : std::string();
  }
  return text;
}

// Reads fields from a frame. The first error sticks: later reads return zero values, and
// Finish reports where the frame went wrong.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes) {}

  uint64_t U64(const char* field) {
    uint64_t v = 0;
    if (ok() && !in_.U64(&v)) Fail(field, "a field of 8 byte(s) past the end");
    return v;
  }
  int64_t I64(const char* field) { return static_cast<int64_t>(U64(field)); }
  double F64(const char* field) {
    double v = 0;
    if (ok() && !in_.F64(&v)) Fail(field, "a field of 8 byte(s) past the end");
    return ok() ? v : 0;
  }
  bool Bool(const char* field) {
    uint8_t c = 0;
    if (!ok()) return false;
    if (!in_.Byte(&c)) {
      Fail(field, "a field of 1 byte(s) past the end");
    } else if (c > 1) {
      Fail(field, "a boolean that is neither 0 nor 1");
    }
    return ok() && c == 1;
  }
  std::string String(const char* field) {
    const uint64_t size = U64(field);
    std::string s;
    if (ok() && !in_.Bytes(size, &s)) {
      Fail(field, "a field of " + std::to_string(size) + " byte(s) past the end");
    }
    return ok() ? ValidUtf8(std::move(s)) : std::string();
  }
  // A count of elements that take at least `min_bytes` each.
  size_t Count(const char* field, size_t min_bytes) {
    const uint64_t count = U64(field);
    if (ok() && count > in_.left() / min_bytes) {
      Fail(field, "a count of " + std::to_string(count) + " that the bytes left cannot hold");
    }
    return ok() ? static_cast<size_t>(count) : 0;
  }
  std::vector<std::string> Strings(const char* field) {
    std::vector<std::string> list(Count(field, kMinStringBytes));
    for (std::string& s : list) s = String(field);
    return list;
  }
  std::vector<int64_t> Ints(const char* field) {
    std::vector<int64_t> list(Count(field, 8));
    for (int64_t& v : list) v = I64(field);
    return list;
  }
  std::map<std::string, int64_t> IntMap(const char* field) {
    std::map<std::string, int64_t> map;
    const size_t count = Count(field, kMinEntryBytes);
    for (size_t i = 0; i < count && ok(); ++i) {
      std::string key = String(field);
      map[key] = I64(field);  // a repeated key keeps its last value, as a JSON object does
    }
    return map;
  }
  bool Magic() {
    if (!in_.Magic(std::string_view(kMagic, sizeof kMagic))) {
      Fail("magic", "not a case result frame");
      return false;
    }
    return true;
  }
  void Fail(const char* field, const std::string& why) {
    if (!ok()) return;
    error_ = Internal("worker result: " + why + " in \"" + field + "\" at byte " +
                      std::to_string(in_.pos()) + " of " + std::to_string(in_.size()));
  }
  bool ok() const { return error_.ok(); }
  Status Finish() {
    if (ok() && in_.left() != 0) {
      error_ = Internal("worker result: " + std::to_string(in_.left()) +
                        " byte(s) left over after the record");
    }
    return error_;
  }

 private:
  ByteReader in_;
  Status error_;
};

void WritePlacement(const PlacementRecord& p, Writer* w) {
  w->String(p.node);
  w->String(p.op_type);
  w->String(p.ep);
  w->U64(p.declines.size());
  for (const DeclineRecord& d : p.declines) {
    w->String(d.ep);
    w->String(d.reason);
  }
  w->String(p.subgraph);
}

PlacementRecord ReadPlacement(Reader* r) {
  PlacementRecord p;
  p.node = r->String("placements.node");
  p.op_type = r->String("placements.op_type");
  p.ep = r->String("placements.ep");
  p.declines.resize(r->Count("placements.declines", kMinDeclineBytes));
  for (DeclineRecord& d : p.declines) {
    d.ep = r->String("placements.declines.ep");
    d.reason = r->String("placements.declines.reason");
  }
  p.subgraph = r->String("placements.subgraph");
  return p;
}

void WriteOutput(const OutputComparison& o, Writer* w) {
  w->String(o.output_name);
  w->I64(o.set_index);
  w->String(o.dtype);
  w->Ints(o.expected_shape);
  w->Ints(o.actual_shape);
  w->Bool(o.passed);
  for (double v : {o.rtol, o.atol, o.max_abs_error, o.max_rel_error}) w->F64(v);
  w->I64(o.mismatch_count);
  w->F64(o.mismatch_share);
  w->I64(o.total_elements);
  w->I64(o.worst_index);
  w->Ints(o.worst_index_nd);
  w->String(o.worst_expected);
  w->String(o.worst_actual);
  w->F64(o.min_passing_rtol);
  w->F64(o.min_passing_atol);
  w->String(o.error);
  w->I64(static_cast<int64_t>(o.metrics.size()));
  for (const MetricRecord& m : o.metrics) {
    w->String(m.metric);
    for (double v : {m.value, m.threshold, m.margin}) w->F64(v);
    w->Bool(m.at_least);
    w->Bool(m.passed);
  }
}

OutputComparison ReadOutput(Reader* r) {
  OutputComparison o;
  o.output_name = r->String("outputs.name");
  o.set_index = r->I64("outputs.set");
  o.dtype = r->String("outputs.dtype");
  o.expected_shape = r->Ints("outputs.expected_shape");
  o.actual_shape = r->Ints("outputs.actual_shape");
  o.passed = r->Bool("outputs.passed");
  o.rtol = r->F64("outputs.rtol");
  o.atol = r->F64("outputs.atol");
  o.max_abs_error = r->F64("outputs.max_abs_error");
  o.max_rel_error = r->F64("outputs.max_rel_error");
  o.mismatch_count = r->I64("outputs.mismatches");
  o.mismatch_share = r->F64("outputs.mismatch_share");
  o.total_elements = r->I64("outputs.total_elements");
  o.worst_index = r->I64("outputs.worst.index");
  o.worst_index_nd = r->Ints("outputs.worst.index_nd");
  o.worst_expected = r->String("outputs.worst.expected");
  o.worst_actual = r->String("outputs.worst.actual");
  o.min_passing_rtol = r->F64("outputs.min_passing_rtol");
  o.min_passing_atol = r->F64("outputs.min_passing_atol");
  o.error = r->String("outputs.error");
  o.metrics.resize(r->Count("outputs.metrics", kMinMetricBytes));
  for (MetricRecord& m : o.metrics) {
    m.metric = r->String("outputs.metrics.metric");
    m.value = r->F64("outputs.metrics.value");
    m.threshold = r->F64("outputs.metrics.threshold");
    m.margin = r->F64("outputs.metrics.margin");
    m.at_least = r->Bool("outputs.metrics.at_least");
    m.passed = r->Bool("outputs.metrics.passed");
  }
  return o;
}

void WriteDivergence(const std::optional<DivergenceRecord>& d, Writer* w) {
  w->Bool(d.has_value());
  if (!d) return;
  w->String(d->node);
  w->String(d->op);
  w->String(d->value);
  w->I64(d->set_index);
  w->F64(d->max_abs_error);
  w->F64(d->max_rel_error);
  w->String(d->summary);
}

std::optional<DivergenceRecord> ReadDivergence(Reader* r) {
  if (!r->Bool("first_divergence")) return std::nullopt;
  DivergenceRecord d;
  d.node = r->String("first_divergence.node");
  d.op = r->String("first_divergence.op");
  d.value = r->String("first_divergence.value");
  d.set_index = r->I64("first_divergence.set");
  d.max_abs_error = r->F64("first_divergence.max_abs_error");
  d.max_rel_error = r->F64("first_divergence.max_rel_error");
  d.summary = r->String("first_divergence.summary");
  return d;
}

Verdict ReadVerdict(Reader* r, const char* field) {
  const std::string name = r->String(field);
  if (!r->ok()) return Verdict::kPass;
  StatusOr<Verdict> verdict = VerdictFromString(name);
  if (!verdict.ok() || name != VerdictToString(*verdict)) {
    r->Fail(field, "an unknown verdict name");
    return Verdict::kPass;
  }
  return *verdict;
}

void WriteRecord(const CaseRecord& c, Writer* w) {
  w->String(c.suite);
  w->String(c.name);
  w->Strings(c.op_types);
  w->IntMap(c.opset_imports);
  w->IntMap(c.op_versions);
  w->String(c.runtime);
  w->String(c.ep);
  w->String(VerdictToString(c.verdict));
  w->String(VerdictToString(c.outcome));
  w->String(c.expectation_reason);
  w->String(c.message);
  w->F64(c.duration_s);
  w->U64(c.placements.size());
  for (const PlacementRecord& p : c.placements) WritePlacement(p, w);
  w->U64(c.fallbacks.size());
  for (const FallbackRecord& f : c.fallbacks) {
    w->String(f.node);
    w->String(f.op_type);
    w->String(f.ep);
    w->Bool(f.shape_only);
  }
  w->U64(c.outputs.size());
  for (const OutputComparison& o : c.outputs) WriteOutput(o, w);
  WriteDivergence(c.first_divergence, w);
  w->String(c.reproducer);
  w->String(c.runtime_log);
}

CaseRecord ReadRecord(Reader* r) {
  CaseRecord c;
  c.suite = r->String("suite");
  c.name = r->String("case");
  c.op_types = r->Strings("op_types");
  c.opset_imports = r->IntMap("opset_imports");
  c.op_versions = r->IntMap("op_versions");
  c.runtime = r->String("runtime");
  c.ep = r->String("ep");
  c.verdict = ReadVerdict(r, "verdict");
  c.outcome = ReadVerdict(r, "outcome");
  c.expectation_reason = r->String("expectation_reason");
  c.message = r->String("message");
  c.duration_s = r->F64("duration_s");
  c.placements.resize(r->Count("placements", kMinPlacementBytes));
  for (PlacementRecord& p : c.placements) p = ReadPlacement(r);
  c.fallbacks.resize(r->Count("fallbacks", kMinFallbackBytes));
  for (FallbackRecord& f : c.fallbacks) {
    f.node = r->String("fallbacks.node");
    f.op_type = r->String("fallbacks.op_type");
    f.ep = r->String("fallbacks.ep");
    f.shape_only = r->Bool("fallbacks.shape_only");
  }
  c.outputs.resize(r->Count("outputs", kMinOutputBytes));
  for (OutputComparison& o : c.outputs) o = ReadOutput(r);
  c.first_divergence = ReadDivergence(r);
  c.reproducer = r->String("reproducer");
  c.runtime_log = r->String("runtime_log");
  return c;
}

}  // namespace

std::string EncodeCaseResult(const CaseResult& result) {
  Writer w;
  w.Raw(std::string_view(kMagic, sizeof kMagic));
  if (!result.status.ok()) {
    w.String(StatusCodeName(result.status.code()));
    w.String(result.status.message());
    return w.Take();
  }
  w.String(kOkName);
  WriteRecord(result.record, &w);
  return w.Take();
}

StatusOr<CaseResult> DecodeCaseResult(std::string_view bytes) {
  Reader r(bytes);
  CaseResult result;
  if (r.Magic()) {
    const std::string code_name = r.String("status");
    if (code_name == kOkName) {
      result.record = ReadRecord(&r);
    } else if (std::optional<StatusCode> code = StatusCodeFromName(code_name); code) {
      result.status = Status(*code, r.String("message"));
    } else if (r.ok()) {
      r.Fail("status", "an unknown status code name");
    }
  }
  ONNXGATE_RETURN_IF_ERROR(r.Finish());
  return result;
}

}  // namespace onnxgate
