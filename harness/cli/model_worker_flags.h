// --timeout, --memory-limit and --isolation of the commands that run a user's model (record,
// check-model, diff, sweep): the limits of the worker each load and run happens in
// (harness/models/model_worker.h), named and bounded as run and gate name theirs.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>

#include "harness/models/model_worker.h"

namespace onnxgate {

struct ModelWorkerFlags {
  ModelWorkerOptions options;
  std::string isolation = "worker";
};

inline void AddModelWorkerFlags(CLI::App* cmd, ModelWorkerFlags* flags) {
  cmd->add_option("--timeout", flags->options.timeout_s,
                  "Seconds (wall clock) one load and run of the model may take in its worker "
                  "process before it is killed and reported (more than 0, at most 604800)")
      ->capture_default_str();
  cmd->add_option("--memory-limit", flags->options.memory_limit_mb,
                  "Address space of that worker in MiB (RLIMIT_AS); a run past it is reported as "
                  "out of memory (0: none)")
      ->capture_default_str();
  cmd->add_option("--isolation", flags->isolation,
                  "Where each load and run of the model happens: worker or case (a worker "
                  "process of its own per step), none (this process, for debuggers; no "
                  "containment of crashes, hangs or memory)")
      ->check(CLI::IsMember({"worker", "case", "none"}))
      ->capture_default_str();
}

// The options the flags give; false after printing "onnxgate <command>: <why>" when refused.
inline bool ModelWorkerOptionsFromFlags(const ModelWorkerFlags& flags, const char* command,
                                        ModelWorkerOptions* options) {
  *options = flags.options;
  IsolationFromName(flags.isolation, &options->isolation);
  if (Status valid = ValidateModelWorkerOptions(*options); !valid.ok()) {
    std::fprintf(stderr, "onnxgate %s: %s\n", command, valid.message().c_str());
    return false;
  }
  return true;
}

}  // namespace onnxgate
