// A case for a worker, described as data: which case of which suite runs on which EP of which of
// the run's runtimes. It travels as one JSON object, so the worker pool hands its workers
// strings (a forked child finds it in memory; a long-lived worker could read it from a pipe) and
// the result comes back the same way (a run JSON of one case).
#pragma once

#include <cstddef>
#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

struct CaseRequest {
  std::string suite;
  std::string case_name;
  size_t runtime = 0;  // index into the run's runtimes
  std::string ep;
};

std::string EncodeCaseRequest(const CaseRequest& request);
// InvalidArgument naming what is wrong: not JSON, not an object, a field missing or of the
// wrong type, a negative runtime index.
StatusOr<CaseRequest> DecodeCaseRequest(const std::string& text);

}  // namespace onnxgate
