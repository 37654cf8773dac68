// libFuzzer target: every JSON file reader onnxgate has, each given every input: suite.json (as
// the gate reads it and as record and import-onnx-tests read it for a merge), expectation files,
// tolerances.json, latency baselines and thresholds, and run reports (which `expectations update
// --from` reads). All of them read through the one JSON reader (runtime/base/json_reader.h).
//
// Besides libFuzzer's byte mutations, half of the mutations replace one value of an input that
// parses as JSON by a value of another type (a number where a string was, a string where an integer
// was, ...). The seeds are valid files, and byte mutations almost never turn "status": "xfail" into
// "status": 5; a reader that trusts a field's type (nlohmann's get<T> and value() throw on the
// wrong one, which aborts) is found within the first runs.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "conformance/expectations.h"
#include "conformance/tolerances.h"
#include "fuzz/fuzz_util.h"
#include "golden/suite_json.h"
#include "harness/latency/baseline.h"
#include "harness/latency/thresholds.h"
#include "harness/suite.h"
#include "reports/json_writer.h"
#include "runtime/base/nesting_depth.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using nlohmann::json;

// Every value of `doc`, the document itself included, in document order. Recursion is bounded: the
// document passed CheckNestingDepth.
void CollectValues(json& doc, std::vector<json*>* values) {
  values->push_back(&doc);
  if (doc.is_structured()) {
    for (json& child : doc) CollectValues(child, values);
  }
}

// Values of every JSON type, and numbers of every kind, as a field may wrongly hold them.
const std::vector<json>& Replacements() {
  static const std::vector<json> values = {
      json(5),        json(-1),        json(2.5),     json(18446744073709551615ull),
      json("13"),     json(""),        json("yes"),   json(true),
      json(false),    json(nullptr),   json::array(), json::array({1, "a"}),
      json::object(), json({{"a", 1}})};
  return values;
}

// One value of `data` replaced by one of another type; 0 when `data` is no JSON document or the
// result does not fit in `max_size`.
size_t MutateValueType(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (!onnxgate::CheckNestingDepth(text, onnxgate::NestingSyntax::kJson, onnxgate::kMaxJsonNesting,
                                   "fuzz input")
           .ok()) {
    return 0;
  }
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  std::vector<json*> values;
  CollectValues(doc, &values);
  std::minstd_rand random(seed);
  json* target = values[random() % values.size()];
  const std::vector<json>& replacements = Replacements();
  const json* replacement = &replacements[random() % replacements.size()];
  for (size_t tries = 0; replacement->type() == target->type() && tries < replacements.size();
       ++tries) {
    replacement = &replacements[random() % replacements.size()];
  }
  *target = *replacement;
  const std::string mutated = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  if (mutated.size() > max_size) return 0;
  std::memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  if (seed % 2 == 0) {
    if (size_t mutated = MutateValueType(data, size, max_size, seed); mutated > 0) return mutated;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = onnxgate::fuzz::WriteScratchFile("input.json", data, size);
  (void)onnxgate::LoadSuiteFile(path);
  (void)onnxgate::ReadSuiteJsonForUpdate(path);
  (void)onnxgate::LoadExpectations(path);
  (void)onnxgate::ToleranceLayers::FromJsonText(text, "fuzz.json");
  (void)onnxgate::ParseBaselineJson(text, "fuzz.json");
  (void)onnxgate::ParseLatencyThresholds(text, "fuzz.json");
  (void)onnxgate::ParseRunJson(text, "fuzz.json");
  return 0;
}
