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

// The deadline of a request the runtime itself makes on its control adapter (claims; a load or
// run outside a worker) when the command gives no --timeout.
inline constexpr std::chrono::seconds kDefaultAdapterControlTimeout{300};

struct AdapterTimeouts {
  std::chrono::seconds hello{120};  // start-up, including the adapter's imports
  // A request on the control adapter: claims, unloads, and loads and runs made outside a worker.
  std::chrono::milliseconds control{kDefaultAdapterControlTimeout};
  // A request from a case's worker, which has its own limit (--timeout makes the case TIMEOUT).
  std::chrono::seconds call{3600};
};

// The timeouts for a command whose per-case limit is `case_timeout_seconds` (0: none): the
// control deadline is that limit, so an adapter that stops answering costs no more than a case.
AdapterTimeouts AdapterTimeoutsFor(double case_timeout_seconds);

// Starts the adapter `command` (split at spaces; no shell), says hello with `options`, and checks
// its answer. NotFound for a command that cannot be run; Unavailable for one that exits or does
// not answer; DataLoss or InvalidArgument for an answer that is not the protocol's (including a
// provider name that is not a safe name, CheckSafeName, an "isolation" other than "worker" or
// "case", and an "unavailable" naming a provider the hello does not list). The runtime's
// NeedsCaseIsolation() is the hello's "isolation" being "case"; its ProviderAvailability() is
// Unavailable, with the adapter's reason, for each provider of the hello's "unavailable".
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateAdapterRuntime(const std::string& command,
                                                                 const RuntimeOptions& options,
                                                                 AdapterTimeouts timeouts = {});

}  // namespace onnxgate
