// --timeout, --memory-limit and --no-isolation of the commands that run a user's model (record,
// check-model, diff, sweep): the limits of the worker each load and run happens in
// (harness/models/model_worker.h), named and bounded as run and gate name theirs.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>

#include "harness/models/model_worker.h"

namespace onnxgate {

struct ModelWorkerFlags {
  ModelWorkerOptions options;
  bool no_isolation = false;
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
  cmd->add_flag("--no-isolation", flags->no_isolation,
                "Load and run the model in this process (for debuggers; no containment of "
                "crashes, hangs or memory)");
}

// The options the flags give; false after printing "onnxgate <command>: <why>" when refused.
inline bool ModelWorkerOptionsFromFlags(const ModelWorkerFlags& flags, const char* command,
                                        ModelWorkerOptions* options) {
  *options = flags.options;
  options->isolate = !flags.no_isolation;
  if (Status valid = ValidateModelWorkerOptions(*options); !valid.ok()) {
    std::fprintf(stderr, "onnxgate %s: %s\n", command, valid.message().c_str());
    return false;
  }
  return true;
}

}  // namespace onnxgate
