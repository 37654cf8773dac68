// The one rule that names a runtime's expectations file for an EP, shared by `gate`,
// `expectations update` and the docs:
//   the built-in runtime        -> <ep>.json                (ref.json, dnnl.json, opencl.json)
//   a runtime of the registry   -> <registry name>.json     (ort.json: one file for its EPs)
//   any other runtime (a plugin or an adapter named by path)
//                               -> <runtime name>.<ep>.json
// so two plugins whose provider is called CPUExecutionProvider never share a file. The built-in
// runtime is known by its name, so it keeps its files when loaded as a plugin
// (libonnxgate_builtin_plugin.so) and gives the same verdicts either way.
#pragma once

#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

// RuntimeUnderTest::name() of the built-in runtime, in this process or as a plugin.
inline constexpr char kBuiltinRuntimeName[] = "onnxgate";

// Whose expectations a file holds.
struct ExpectationsOwner {
  enum class Kind { kBuiltin, kRegistry, kOther };
  Kind kind = Kind::kBuiltin;
  // kRegistry: the registry name ("ort"); kOther: the runtime's name (RuntimeUnderTest::name()).
  std::string name;
};

// The owner for a runtime as the command line named it: `spec` "builtin", or a runtime named
// kBuiltinRuntimeName, is the built-in runtime; else a non-empty `registry_name` is a registry
// runtime; anything else is `runtime_name`.
ExpectationsOwner ExpectationsOwnerOf(const std::string& spec, const std::string& registry_name,
                                      const std::string& runtime_name);

// The file name (no folder) by the rule above. InvalidArgument when the EP or the name could not
// be one path component (CheckSafeName), naming which.
StatusOr<std::string> ExpectationsFileName(const ExpectationsOwner& owner, const std::string& ep);

// How reports and the console show an expectations file: `path` relative to `root` (--root)
// when it lies inside it, else as it is.
std::string ExpectationsPathShown(const std::string& path, const std::string& root);

}  // namespace onnxgate
