// The private codec of a case's result on its way back from the worker that ran it to the
// driver: a small binary frame of this binary's own, not the public JSON report schema (which
// may change for its readers without touching the worker, and the other way round). Both ends
// are one onnxgate binary on one machine, so the frame has no version negotiation; it is still
// checked field by field on decode, because a worker can die half-way through writing it or be
// a runtime's plugin that scribbled over memory.
#pragma once

#include <string>
#include <string_view>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// What a worker sends back for one case: its record (status OK), or the error that kept the
// worker from making one. The status code travels by name (StatusCodeName).
struct CaseResult {
  Status status;
  CaseRecord record;  // the raw outcome, before expectations; meaningful when status is OK
};

// The frame: "OGR1", the status code's name ("OK" or StatusCodeName), then the message of an
// error, or every field of the record (strings and counts as 8-byte little-endian lengths,
// numbers as 8-byte little-endian values, verdicts by name).
std::string EncodeCaseResult(const CaseResult& result);

// Internal naming the field and the byte offset for bytes that are not such a frame: a bad
// magic, a truncated field, a length or count past the end, an unknown status code or verdict
// name, a boolean that is neither 0 nor 1, bytes left over. Never aborts, and allocates no more
// than the frame's own size, whatever the lengths in it claim. Strings come out as valid UTF-8:
// invalid sequences become U+FFFD exactly as the JSON report writes them.
StatusOr<CaseResult> DecodeCaseResult(std::string_view bytes);

}  // namespace onnxgate
