/* onnxgate plugin ABI: how onnxgate drives a runtime under test that is built as a shared
 * library. A plugin exports one C function, onnxgate_plugin_api(), that returns a table of
 * function pointers. docs/plugin-abi.md explains every rule; the short form:
 *
 * - Versioning. The table starts with abi_version and struct_size. onnxgate refuses a plugin
 *   whose abi_version differs from ONNXGATE_PLUGIN_ABI_VERSION, naming both versions. A minor
 *   version (ONNXGATE_PLUGIN_ABI_MINOR_VERSION) only ever appends members, so struct_size tells
 *   what a table holds: onnxgate reads a later member only where struct_size covers it and it is
 *   not NULL, and a table of version 1.0, 1.1 or 1.2 (ONNXGATE_PLUGIN_API_SIZE_1_0, _1_1 or
 *   _1_2 bytes) still loads.
 * - Errors. Every call that can fail takes an OnnxgateStatus* that the caller zeroes; the plugin
 *   sets code (an OnnxgateStatusCode) and a NUL-terminated message. An error without a message
 *   is itself reported as a fault of the plugin. ONNXGATE_STATUS_UNIMPLEMENTED from load means
 *   the runtime declines the model (UNSUPPORTED in a report); other codes are errors.
 * - Ownership. Everything the caller passes in is borrowed for the duration of the call.
 *   Everything the plugin returns (strings, arrays, values) is owned by the plugin and stays
 *   valid until the object it came from is destroyed (the runtime, the model, or the outputs of
 *   a run, released with release_outputs).
 * - Threads. run may be called from several threads at once on one model; every other call
 *   (timed_runs included) is made from one thread at a time.
 * - Values. A tensor's data is dense, row-major, in the element type's ONNX layout: int4,
 *   uint4, float4e2m1 and int2/uint2 packed as onnx.proto packs them (low bits first), bool one
 *   byte per element, strings as an array of OnnxgateString. A sequence holds tensors; an
 *   optional holds nothing, one tensor or one sequence.
 */
#ifndef ONNXGATE_PLUGIN_H_
#define ONNXGATE_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ONNXGATE_PLUGIN_ABI_VERSION 1u
/* 1.1: provider_availability and placement_subgraphs. 1.2: needs_case_isolation. 1.3:
 * timed_runs. */
#define ONNXGATE_PLUGIN_ABI_MINOR_VERSION 3u
#define ONNXGATE_PLUGIN_ENTRY_POINT "onnxgate_plugin_api"
#define ONNXGATE_PLUGIN_MESSAGE_SIZE 1024

typedef enum OnnxgateStatusCode {
  ONNXGATE_STATUS_OK = 0,
  ONNXGATE_STATUS_INVALID_ARGUMENT = 1, /* the input is malformed or breaks a rule */
  ONNXGATE_STATUS_DATA_LOSS = 2,        /* a file is truncated or corrupt */
  ONNXGATE_STATUS_NOT_FOUND = 3,        /* a file, provider or name does not exist */
  ONNXGATE_STATUS_UNIMPLEMENTED = 4,    /* valid input this runtime does not support */
  ONNXGATE_STATUS_UNAVAILABLE = 5,      /* a device or service is not there right now */
  ONNXGATE_STATUS_INTERNAL = 6          /* a bug in the runtime */
} OnnxgateStatusCode;

typedef struct OnnxgateStatus {
  int32_t code; /* OnnxgateStatusCode */
  char message[ONNXGATE_PLUGIN_MESSAGE_SIZE];
} OnnxgateStatus;

/* Element types are numbered as onnx.proto's TensorProto.DataType (1 float, 7 int64, 8 string,
 * 9 bool, 10 float16, ... 26 uint2). */
typedef struct OnnxgateString {
  const char* data;
  size_t size;
} OnnxgateString;

typedef enum OnnxgateValueKind {
  ONNXGATE_VALUE_TENSOR = 1,
  ONNXGATE_VALUE_SEQUENCE = 2,
  ONNXGATE_VALUE_OPTIONAL = 3
} OnnxgateValueKind;

typedef struct OnnxgateValue OnnxgateValue;
struct OnnxgateValue {
  int32_t kind;      /* OnnxgateValueKind */
  int32_t elem_type; /* the tensor's element type; for a sequence or optional, its elements' */
  /* A tensor: */
  size_t rank;
  const int64_t* dims; /* rank entries, each >= 0 */
  const void* data;    /* may be NULL only when the tensor has no elements */
  size_t data_bytes;   /* exactly the dense size of the elements (strings: count * sizeof) */
  /* A sequence (its tensors) or an optional (0 items: empty; 1 item: the value it holds): */
  size_t item_count;
  const OnnxgateValue* items;
  int32_t optional_inner_kind; /* an optional's: ONNXGATE_VALUE_TENSOR or _SEQUENCE */
};

typedef struct OnnxgateNamedValue {
  const char* name;
  OnnxgateValue value;
} OnnxgateNamedValue;

typedef struct OnnxgateOption {
  const char* key;
  const char* value;
} OnnxgateOption;

typedef enum OnnxgateFallback {
  ONNXGATE_FALLBACK_ALLOW = 0, /* a node the first provider declines may run on a later one */
  ONNXGATE_FALLBACK_WARN = 1,  /* the same, with a warning */
  ONNXGATE_FALLBACK_FORBID = 2 /* the load fails unless the first provider takes every node */
} OnnxgateFallback;

typedef struct OnnxgateLoadOptions {
  const char* model_path;       /* .onnx, or .onnxtxt (ONNX text format) */
  const char* const* providers; /* priority order */
  size_t provider_count;
  int32_t fallback;           /* OnnxgateFallback */
  int32_t optimization_level; /* 0 none, 1 basic, 2 everything the runtime has */
  int32_t intra_op_threads;   /* refuse (INVALID_ARGUMENT) rather than use fewer */
} OnnxgateLoadOptions;

/* One dimension of a declared shape: size >= 0, or -1 with a symbol (or none: unknown). */
typedef struct OnnxgateDim {
  int64_t size;
  const char* symbol;
} OnnxgateDim;

typedef struct OnnxgateValueInfo {
  const char* name;
  int32_t kind;      /* OnnxgateValueKind */
  int32_t elem_type; /* 0 when not declared */
  int32_t has_shape;
  size_t rank;
  const OnnxgateDim* dims;
} OnnxgateValueInfo;

typedef struct OnnxgateDecline {
  const char* provider;
  const char* reason;
} OnnxgateDecline;

/* Where one node ran, and why the providers before it declined it. */
typedef struct OnnxgatePlacement {
  const char* node_name;
  const char* op_type;
  const char* domain;
  int64_t since_version;
  const char* provider;
  size_t decline_count;
  const OnnxgateDecline* declines;
} OnnxgatePlacement;

typedef struct OnnxgateTypeConstraint {
  const char* name;     /* "T", "T1", ... as the op's schema names it */
  const int32_t* types; /* element types */
  size_t type_count;
} OnnxgateTypeConstraint;

/* An op version range a provider claims, and the types it takes. */
typedef struct OnnxgateClaim {
  const char* domain; /* "" for ai.onnx */
  const char* op_type;
  int64_t since_version;
  int64_t until_version; /* inclusive */
  size_t constraint_count;
  const OnnxgateTypeConstraint* constraints;
} OnnxgateClaim;

typedef struct OnnxgateOpsetRange {
  const char* domain; /* "" for ai.onnx */
  int64_t min;
  int64_t max;
} OnnxgateOpsetRange;

typedef struct OnnxgateRuntime OnnxgateRuntime; /* opaque, the plugin's */
typedef struct OnnxgateModel OnnxgateModel;     /* opaque, the plugin's */
typedef struct OnnxgateOutputs OnnxgateOutputs; /* opaque, the plugin's */

typedef struct OnnxgatePluginApi {
  uint32_t abi_version; /* ONNXGATE_PLUGIN_ABI_VERSION the plugin was built with */
  uint32_t struct_size; /* sizeof(OnnxgatePluginApi) the plugin was built with */

  /* The runtime. */
  OnnxgateRuntime* (*create)(const OnnxgateOption* options, size_t option_count,
                             OnnxgateStatus* status);
  void (*destroy)(OnnxgateRuntime* runtime);
  const char* (*name)(const OnnxgateRuntime* runtime);
  const char* (*version)(const OnnxgateRuntime* runtime);
  void (*ir_versions)(const OnnxgateRuntime* runtime, int64_t* min, int64_t* max);
  size_t (*opset_ranges)(const OnnxgateRuntime* runtime, const OnnxgateOpsetRange** ranges);
  size_t (*providers)(const OnnxgateRuntime* runtime, const char* const** names);
  int32_t (*max_intra_op_threads)(const OnnxgateRuntime* runtime, const char* provider,
                                  OnnxgateStatus* status);
  /* UNIMPLEMENTED when the runtime cannot tell what a provider claims. */
  size_t (*claims)(const OnnxgateRuntime* runtime, const char* provider,
                   const OnnxgateClaim** claims, OnnxgateStatus* status);

  /* A model. */
  OnnxgateModel* (*load)(const OnnxgateRuntime* runtime, const OnnxgateLoadOptions* options,
                         OnnxgateStatus* status);
  void (*unload)(OnnxgateModel* model);
  size_t (*inputs)(const OnnxgateModel* model, const OnnxgateValueInfo** infos);
  size_t (*outputs)(const OnnxgateModel* model, const OnnxgateValueInfo** infos);
  size_t (*metadata)(const OnnxgateModel* model, const OnnxgateOption** entries);
  size_t (*placements)(const OnnxgateModel* model, const OnnxgatePlacement** placements);

  /* One run: returns the graph outputs in outputs() order, or NULL with the status set. */
  OnnxgateOutputs* (*run)(const OnnxgateModel* model, const OnnxgateNamedValue* feeds,
                          size_t feed_count, OnnxgateStatus* status);
  size_t (*output_values)(const OnnxgateOutputs* outputs, const OnnxgateValue** values);
  void (*release_outputs)(OnnxgateOutputs* outputs);

  /* Version 1.1. Absent (a shorter table) or NULL: every provider is available, and no node
   * runs in a subgraph. */
  /* Whether a provider can run on this machine: the status stays OK, or is UNAVAILABLE with
   * the reason as its message ("no OpenCL device: ..."). A case on an unavailable provider is
   * SKIP with that reason. Any other problem with the provider is load's to report. */
  void (*provider_availability)(const OnnxgateRuntime* runtime, const char* provider,
                                OnnxgateStatus* status);
  /* For each of placements(), in the same order, the name of the provider's kernel that runs
   * that node together with others (e.g. "conv1+relu1"), or NULL or "" when the node runs
   * alone. Returns the count, which is placements()' count. */
  size_t (*placement_subgraphs)(const OnnxgateModel* model, const char* const** subgraphs);

  /* Version 1.2. Absent (a shorter table) or NULL: the runtime's cases may share a process. */
  /* Nonzero when each case on this runtime needs a process of its own: the runtime keeps state
   * that a later case in the same process could see (a global it mutates, a cache keyed by
   * something other than the model), so onnxgate never runs two of its cases in one worker
   * process. Asked once per runtime, when onnxgate probes the plugin. */
  int32_t (*needs_case_isolation)(const OnnxgateRuntime* runtime);

  /* Version 1.3. Absent (a shorter table) or NULL: the plugin offers no timed runs, and onnxgate
   * times run itself (in the same process, which is fair too). */
  /* Runs the model `runs` times (>= 1) on `feeds`, taken once, and writes each run's wall time
   * in milliseconds to times_ms[0 .. runs-1] (the caller's array), measured on a monotonic clock
   * around the runtime's own run call alone; the outputs are discarded. UNIMPLEMENTED: the
   * plugin does not offer it for this model (onnxgate then times run itself). */
  void (*timed_runs)(const OnnxgateModel* model, const OnnxgateNamedValue* feeds, size_t feed_count,
                     int64_t runs, double* times_ms, OnnxgateStatus* status);
} OnnxgatePluginApi;

/* The struct_size of a version 1.0 table: every member before provider_availability. */
#define ONNXGATE_PLUGIN_API_SIZE_1_0 offsetof(OnnxgatePluginApi, provider_availability)
/* The struct_size of a version 1.1 table: every member before needs_case_isolation. */
#define ONNXGATE_PLUGIN_API_SIZE_1_1 offsetof(OnnxgatePluginApi, needs_case_isolation)
/* The struct_size of a version 1.2 table: every member before timed_runs. */
#define ONNXGATE_PLUGIN_API_SIZE_1_2 offsetof(OnnxgatePluginApi, timed_runs)

typedef const OnnxgatePluginApi* (*OnnxgatePluginApiFunction)(void);

/* Every plugin defines this, with C linkage and default visibility. */
const OnnxgatePluginApi* onnxgate_plugin_api(void);

#ifdef __cplusplus
}
#endif

#endif /* ONNXGATE_PLUGIN_H_ */
