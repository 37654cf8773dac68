// libFuzzer target: every JSON reader onnxgate has, each given every input: suite.json,
// expectation files, tolerances.json, latency baselines and thresholds, and run reports (which
// `expectations update --from` reads).
#include <cstddef>
#include <cstdint>
#include <string>

#include "conformance/expectations.h"
#include "conformance/tolerances.h"
#include "fuzz/fuzz_util.h"
#include "harness/latency/baseline.h"
#include "harness/latency/thresholds.h"
#include "harness/suite.h"
#include "reports/json_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = onnxgate::fuzz::WriteScratchFile("input.json", data, size);
  (void)onnxgate::LoadSuiteFile(path);
  (void)onnxgate::LoadExpectations(path);
  (void)onnxgate::ToleranceLayers::FromJsonText(text, "fuzz.json");
  (void)onnxgate::ParseBaselineJson(text, "fuzz.json");
  (void)onnxgate::ParseLatencyThresholds(text, "fuzz.json");
  (void)onnxgate::ParseRunJson(text, "fuzz.json");
  return 0;
}
