// A runtime under test driven out of process: a long-lived adapter program speaking the
// framed protocol of docs/adapter-protocol.md on its stdin and stdout. The adapter can be
// written in any language (adapters/ort/ is ONNX Runtime's, in Python).
//
// One adapter process answers the runtime's own questions (hello, claims, threads); each
// worker slot gets one more (PrepareWorkerSlots), reused case after case. An adapter that dies
// or does not answer in time is the case's CRASH (StatusCode::kAborted) and is started again for
// the next case; a reply that is not a frame or breaks the protocol is an error naming the
// adapter and the model, and the adapter is started again.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "runtime/api/runtime.h"

namespace onnxgate {

struct AdapterTimeouts {
  std::chrono::seconds hello{120};   // start-up, including the adapter's imports
  std::chrono::seconds call{3600};   // any other request (a case's worker has its own limit)
};

// Starts the adapter `command` (split at spaces; no shell), says hello with `options`, and
// checks its answer. NotFound for a command that cannot be run; Unavailable for one that exits
// or does not answer; DataLoss or InvalidArgument for an answer that is not the protocol's.
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateAdapterRuntime(const std::string& command,
                                                                const RuntimeOptions& options,
                                                                AdapterTimeouts timeouts = {});

}  // namespace onnxgate
