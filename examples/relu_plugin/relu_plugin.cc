// An example plugin written against <onnxgate/plugin.h> alone (docs/plugin-abi.md): a runtime
// with one provider, "relu-cpu", that claims Relu-14 on float and runs any model as Relu on one
// float tensor X -> Y. It does not parse the model: a real plugin hands the path to its engine.
// examples/relu_plugin/CMakeLists.txt builds it out of tree with find_package(onnxgate).
//
// onnxgate's own tests also build it once per fault (ONNXGATE_TEST_PLUGIN_FAULT, see
// runtime/CMakeLists.txt) to prove that each way a plugin can misbehave becomes one clear error,
// or is contained in the worker process:
//   none             well behaved (the default)
//   no_entry_point   does not export onnxgate_plugin_api
//   wrong_abi        a table for ABI version 999
//   output_count     run returns two outputs for one declared
//   null_buffer      run returns a float[n] with a null data pointer
//   mis_sized        run returns a float[n] whose data_bytes is one element short
//   undeclared_type  run returns int32 where the model declares float
//   no_message       run fails with INTERNAL and an empty message
//   crash            run dereferences a null pointer (SIGSEGV)
//   hang             run never returns
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "onnxgate/plugin.h"

#ifndef ONNXGATE_TEST_PLUGIN_FAULT
#define ONNXGATE_TEST_PLUGIN_FAULT "none"
#endif

namespace {

const std::string kFault = ONNXGATE_TEST_PLUGIN_FAULT;

constexpr int32_t kFloat = 1;
constexpr int32_t kInt32 = 6;

void Fail(OnnxgateStatus* status, int32_t code, const char* message) {
  status->code = code;
  std::snprintf(status->message, sizeof(status->message), "%s", message);
}

}  // namespace

struct OnnxgateRuntime {
  const char* name = "relu-plugin";
};

struct OnnxgateModel {
  std::string path;
  OnnxgateDim dim{-1, "N"};
  OnnxgateValueInfo input{"X", ONNXGATE_VALUE_TENSOR, kFloat, 1, 1, &dim};
  OnnxgateValueInfo output{"Y", ONNXGATE_VALUE_TENSOR, kFloat, 1, 1, &dim};
  OnnxgatePlacement placement{"relu", "Relu", "", 14, "relu-cpu", 0, nullptr};
};

struct OnnxgateOutputs {
  std::vector<int64_t> dims;
  std::vector<float> floats;
  std::vector<int32_t> ints;
  OnnxgateValue values[2] = {};
  size_t count = 1;
};

namespace {

const char* const kProviders[] = {"relu-cpu"};
const OnnxgateOpsetRange kOpsets[] = {{"", 1, 28}};
const int32_t kFloatTypes[] = {kFloat};
const OnnxgateTypeConstraint kReluTypes[] = {{"T", kFloatTypes, 1}};
const OnnxgateClaim kClaims[] = {{"", "Relu", 14, 14, 1, kReluTypes}};

OnnxgateRuntime* Create(const OnnxgateOption* options, size_t count, OnnxgateStatus* status) {
  if (count > 0) {
    Fail(status, ONNXGATE_STATUS_INVALID_ARGUMENT, "relu-plugin takes no options");
    return nullptr;
  }
  return new (std::nothrow) OnnxgateRuntime();
}
void Destroy(OnnxgateRuntime* r) { delete r; }
const char* Name(const OnnxgateRuntime* r) { return r->name; }
const char* Version(const OnnxgateRuntime*) { return "1.0-test"; }
void IrVersions(const OnnxgateRuntime*, int64_t* min, int64_t* max) {
  *min = 3;
  *max = 14;
}
size_t OpsetRanges(const OnnxgateRuntime*, const OnnxgateOpsetRange** ranges) {
  *ranges = kOpsets;
  return 1;
}
size_t Providers(const OnnxgateRuntime*, const char* const** names) {
  *names = kProviders;
  return 1;
}
int32_t MaxThreads(const OnnxgateRuntime*, const char* provider, OnnxgateStatus* status) {
  if (std::strcmp(provider, "relu-cpu") != 0) {
    Fail(status, ONNXGATE_STATUS_NOT_FOUND, "no such provider");
    return 0;
  }
  return 1;
}
size_t Claims(const OnnxgateRuntime*, const char* provider, const OnnxgateClaim** claims,
              OnnxgateStatus* status) {
  if (std::strcmp(provider, "relu-cpu") != 0) {
    Fail(status, ONNXGATE_STATUS_NOT_FOUND, "no such provider");
    return 0;
  }
  *claims = kClaims;
  return 1;
}

OnnxgateModel* Load(const OnnxgateRuntime*, const OnnxgateLoadOptions* options,
                    OnnxgateStatus* status) {
  for (size_t i = 0; i < options->provider_count; ++i) {
    if (std::strcmp(options->providers[i], "relu-cpu") != 0) {
      Fail(status, ONNXGATE_STATUS_NOT_FOUND, "relu-plugin offers only the provider relu-cpu");
      return nullptr;
    }
  }
  auto* m = new (std::nothrow) OnnxgateModel();
  if (m != nullptr) m->path = options->model_path;
  return m;
}
void Unload(OnnxgateModel* m) { delete m; }
size_t Inputs(const OnnxgateModel* m, const OnnxgateValueInfo** infos) {
  *infos = &m->input;
  return 1;
}
size_t Outputs(const OnnxgateModel* m, const OnnxgateValueInfo** infos) {
  *infos = &m->output;
  return 1;
}
size_t Metadata(const OnnxgateModel*, const OnnxgateOption** entries) {
  *entries = nullptr;
  return 0;
}
size_t Placements(const OnnxgateModel* m, const OnnxgatePlacement** placements) {
  *placements = &m->placement;
  return 1;
}

OnnxgateOutputs* Run(const OnnxgateModel*, const OnnxgateNamedValue* feeds, size_t count,
                     OnnxgateStatus* status) {
  if (count != 1 || std::strcmp(feeds[0].name, "X") != 0 ||
      feeds[0].value.kind != ONNXGATE_VALUE_TENSOR || feeds[0].value.elem_type != kFloat) {
    Fail(status, ONNXGATE_STATUS_INVALID_ARGUMENT, "relu-plugin takes one float tensor X");
    return nullptr;
  }
  if (kFault == "no_message") {
    status->code = ONNXGATE_STATUS_INTERNAL;
    return nullptr;
  }
  if (kFault == "crash") {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (kFault == "hang") {
    for (;;) pause();
  }
  const OnnxgateValue& x = feeds[0].value;
  auto* out = new OnnxgateOutputs();
  out->dims.assign(x.dims, x.dims + x.rank);
  const auto* in = static_cast<const float*>(x.data);
  const size_t n = x.data_bytes / sizeof(float);
  for (size_t i = 0; i < n; ++i) out->floats.push_back(in[i] > 0 ? in[i] : 0.0f);
  OnnxgateValue& y = out->values[0];
  y.kind = ONNXGATE_VALUE_TENSOR;
  y.elem_type = kFloat;
  y.rank = out->dims.size();
  y.dims = out->dims.data();
  y.data = out->floats.data();
  y.data_bytes = n * sizeof(float);
  if (kFault == "output_count") {
    out->values[1] = y;
    out->count = 2;
  } else if (kFault == "null_buffer") {
    y.data = nullptr;
  } else if (kFault == "mis_sized") {
    y.data_bytes -= sizeof(float);
  } else if (kFault == "undeclared_type") {
    out->ints.assign(n, 0);
    y.elem_type = kInt32;
    y.data = out->ints.data();
    y.data_bytes = n * sizeof(int32_t);
  }
  return out;
}

size_t OutputValues(const OnnxgateOutputs* o, const OnnxgateValue** values) {
  *values = o->values;
  return o->count;
}
void ReleaseOutputs(OnnxgateOutputs* o) { delete o; }

OnnxgatePluginApi MakeApi() {
  OnnxgatePluginApi a{};
  a.abi_version = kFault == "wrong_abi" ? 999u : ONNXGATE_PLUGIN_ABI_VERSION;
  a.struct_size = sizeof(OnnxgatePluginApi);
  a.create = Create;
  a.destroy = Destroy;
  a.name = Name;
  a.version = Version;
  a.ir_versions = IrVersions;
  a.opset_ranges = OpsetRanges;
  a.providers = Providers;
  a.max_intra_op_threads = MaxThreads;
  a.claims = Claims;
  a.load = Load;
  a.unload = Unload;
  a.inputs = Inputs;
  a.outputs = Outputs;
  a.metadata = Metadata;
  a.placements = Placements;
  a.run = Run;
  a.output_values = OutputValues;
  a.release_outputs = ReleaseOutputs;
  return a;
}

}  // namespace

#ifndef ONNXGATE_TEST_PLUGIN_NO_ENTRY_POINT
extern "C" __attribute__((visibility("default"))) const OnnxgatePluginApi* onnxgate_plugin_api(
    void) {
  static const OnnxgatePluginApi api = MakeApi();
  return &api;
}
#else
extern "C" __attribute__((visibility("default"))) int not_a_plugin(void) {
  return MakeApi().abi_version == 0 ? 1 : 0;
}
#endif
