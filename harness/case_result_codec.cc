// CaseResult <-> the worker's binary result frame, decoded with every length checked.
#include "harness/case_result_codec.h"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

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
// Six strings, three lists, six integers or doubles of 8 bytes, four more doubles and a boolean.
constexpr size_t kMinOutputBytes = 15 * 8 + 4 * 8 + 1;

class Writer {
 public:
  void U64(uint64_t v) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    out_.append(bytes, 8);
  }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, 8);
    U64(bits);
  }
  void Bool(bool v) { out_.push_back(v ? '\1' : '\0'); }
  void String(std::string_view s) {
    U64(s.size());
    out_.append(s);
  }
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
  void Raw(const char* data, size_t size) { out_.append(data, size); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
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
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  uint64_t U64(const char* field) {
    if (!Need(8, field)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
    }
    pos_ += 8;
    return v;
  }
  int64_t I64(const char* field) { return static_cast<int64_t>(U64(field)); }
  double F64(const char* field) {
    const uint64_t bits = U64(field);
    double v = 0;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  bool Bool(const char* field) {
    if (!Need(1, field)) return false;
    const char c = bytes_[pos_];
    if (c != '\0' && c != '\1') {
      Fail(field, "a boolean that is neither 0 nor 1");
      return false;
    }
    ++pos_;
    return c == '\1';
  }
  std::string String(const char* field) {
    const uint64_t size = U64(field);
    if (!Need(size, field)) return std::string();
    std::string s(bytes_.substr(pos_, size));
    pos_ += size;
    return ValidUtf8(std::move(s));
  }
  // A count of elements that take at least `min_bytes` each.
  size_t Count(const char* field, size_t min_bytes) {
    const uint64_t count = U64(field);
    if (ok() && count > (bytes_.size() - pos_) / min_bytes) {
      Fail(field, "a count of " + std::to_string(count) + " that the bytes left cannot hold");
      return 0;
    }
    return static_cast<size_t>(count);
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
    if (bytes_.size() < sizeof kMagic || std::memcmp(bytes_.data(), kMagic, sizeof kMagic) != 0) {
      Fail("magic", "not a case result frame");
      return false;
    }
    pos_ = sizeof kMagic;
    return true;
  }
  void Fail(const char* field, const std::string& why) {
    if (!ok()) return;
    error_ = Internal("worker result: " + why + " in \"" + field + "\" at byte " +
                      std::to_string(pos_) + " of " + std::to_string(bytes_.size()));
  }
  bool ok() const { return error_.ok(); }
  Status Finish() {
    if (ok() && pos_ != bytes_.size()) {
      error_ = Internal("worker result: " + std::to_string(bytes_.size() - pos_) +
                        " byte(s) left over after the record");
    }
    return error_;
  }

 private:
  bool Need(uint64_t size, const char* field) {
    if (!ok()) return false;
    if (size > bytes_.size() - pos_) {
      Fail(field, "a field of " + std::to_string(size) + " byte(s) past the end");
      return false;
    }
    return true;
  }

  std::string_view bytes_;
  size_t pos_ = 0;
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
  w->U64(c.outputs.size());
  for (const OutputComparison& o : c.outputs) WriteOutput(o, w);
  WriteDivergence(c.first_divergence, w);
  w->String(c.reproducer);
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
  c.outputs.resize(r->Count("outputs", kMinOutputBytes));
  for (OutputComparison& o : c.outputs) o = ReadOutput(r);
  c.first_divergence = ReadDivergence(r);
  c.reproducer = r->String("reproducer");
  return c;
}

}  // namespace

std::string EncodeCaseResult(const CaseResult& result) {
  Writer w;
  w.Raw(kMagic, sizeof kMagic);
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
