// Test-only plugins that misbehave where the example plugin (examples/relu_plugin) cannot: while
// the library is being opened (a constructor), in create(), and in the facts they list. Built
// once per fault (ONNXGATE_HOSTILE_PLUGIN_FAULT, runtime/CMakeLists.txt) on top of the example
// plugin, whose runtime and model they keep apart from the fault:
//   open_log               well behaved; each process that opens it appends its pid to the file
//                          $ONNXGATE_TEST_PLUGIN_OPEN_LOG
//   open_exit0, open_exit1 a constructor calls exit(0), exit(1)
//   open_segv, open_abort  a constructor dereferences a null pointer, calls abort()
//   create_exit0           create() calls exit(0)
//   create_segv            create() dereferences a null pointer
//   create_hang            create() never returns
//   huge_provider_count    providers() gives a count of 2^40 for a one-entry array
//   climbing_provider      its provider is named "../../../../pwned-baseline"
//   endless_version        version() is 2 MiB of 'v'
//   huge_claim_count       claims() gives a count of 2^40 for a one-entry array
//   inverted_claim         claims Relu from version 14 to version 1
//   unavailable_provider   ABI 1.1: "relu-cpu" is UNAVAILABLE ("no relu device: test"), and its
//                          placement runs in the subgraph "relu+fused"
//   garbled_reason         as unavailable_provider, with a reason that is not valid UTF-8
//   abi_1_0                a table of ABI 1.0 (struct_size ONNXGATE_PLUGIN_API_SIZE_1_0) whose
//                          memory past that size holds unavailable_provider's 1.1 members and
//                          case_isolation's 1.2 member, which onnxgate must never read
//   case_isolation         ABI 1.2: needs_case_isolation says yes
//   abi_1_1                a table of ABI 1.1 (struct_size ONNXGATE_PLUGIN_API_SIZE_1_1) with
//                          unavailable_provider's 1.1 members, whose memory past that size holds
//                          case_isolation's 1.2 member, which onnxgate must never read
//   timed_runs             ABI 1.3: timed_runs gives every run 0.5 ms
//   negative_time          ABI 1.3: timed_runs gives the second run -1 ms
//   abi_1_2                a table of ABI 1.2 (struct_size ONNXGATE_PLUGIN_API_SIZE_1_2) whose
//                          memory past that size holds a timed_runs that crashes, which onnxgate
//                          must never call
#define ONNXGATE_TEST_PLUGIN_NO_ENTRY_POINT 1
#include <fcntl.h>

#include <cstdlib>

#include "relu_plugin.cc"  // NOLINT: the example's runtime, reused whole

namespace {

constexpr const char* kHostileFault = ONNXGATE_HOSTILE_PLUGIN_FAULT;

bool Is(const char* fault) { return std::strcmp(kHostileFault, fault) == 0; }

// A store through a null pointer that the compiler cannot see is null (so it cannot drop it).
void Crash() {
  volatile int* volatile nowhere = nullptr;
  *nowhere = 1;
}

__attribute__((constructor)) void OnOpen() {
  if (Is("open_log")) {
    const char* log = std::getenv("ONNXGATE_TEST_PLUGIN_OPEN_LOG");
    if (log == nullptr) return;
    const int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    const std::string line = std::to_string(getpid()) + "\n";
    if (write(fd, line.data(), line.size()) < 0) Crash();
    close(fd);
  }
  if (Is("open_exit0")) std::exit(0);
  if (Is("open_exit1")) std::exit(1);
  if (Is("open_segv")) Crash();
  if (Is("open_abort")) std::abort();
}

OnnxgateRuntime* HostileCreate(const OnnxgateOption* options, size_t count,
                               OnnxgateStatus* status) {
  if (Is("create_exit0")) std::exit(0);
  if (Is("create_segv")) Crash();
  if (Is("create_hang")) {
    for (;;) pause();
  }
  return Create(options, count, status);
}

const char* const kClimbingProviders[] = {"../../../../pwned-baseline"};

size_t HostileProviders(const OnnxgateRuntime* r, const char* const** names) {
  if (Is("climbing_provider")) {
    *names = kClimbingProviders;
    return 1;
  }
  const size_t n = Providers(r, names);
  return Is("huge_provider_count") ? size_t{1} << 40 : n;
}

const char* HostileVersion(const OnnxgateRuntime* r) {
  if (!Is("endless_version")) return Version(r);
  static const std::string endless(size_t{2} << 20, 'v');
  return endless.c_str();
}

const OnnxgateClaim kInvertedClaims[] = {{"", "Relu", 14, 1, 1, kReluTypes}};

size_t HostileClaims(const OnnxgateRuntime* r, const char* provider, const OnnxgateClaim** claims,
                     OnnxgateStatus* status) {
  const size_t n = Claims(r, provider, claims, status);
  if (Is("inverted_claim") && n > 0) *claims = kInvertedClaims;
  return Is("huge_claim_count") && n > 0 ? size_t{1} << 40 : n;
}

void HostileAvailability(const OnnxgateRuntime*, const char* provider, OnnxgateStatus* status) {
  if (std::strcmp(provider, "relu-cpu") != 0) return;
  Fail(status, ONNXGATE_STATUS_UNAVAILABLE,
       Is("garbled_reason") ? "no relu device: \xff\xfe" : "no relu device: test");
}

const char* const kSubgraphs[] = {"relu+fused"};

size_t HostileSubgraphs(const OnnxgateModel*, const char* const** subgraphs) {
  *subgraphs = kSubgraphs;
  return 1;
}

int32_t HostileNeedsCaseIsolation(const OnnxgateRuntime*) { return 1; }

void HostileTimedRuns(const OnnxgateModel*, const OnnxgateNamedValue*, size_t, int64_t runs,
                      double* times_ms, OnnxgateStatus*) {
  if (Is("abi_1_2")) Crash();
  for (int64_t i = 0; i < runs; ++i) times_ms[i] = 0.5;
  if (Is("negative_time") && runs > 1) times_ms[1] = -1.0;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const OnnxgatePluginApi* onnxgate_plugin_api(
    void) {
  static const OnnxgatePluginApi api = [] {
    OnnxgatePluginApi a = MakeApi();
    a.create = HostileCreate;
    a.providers = HostileProviders;
    a.version = HostileVersion;
    a.claims = HostileClaims;
    if (Is("unavailable_provider") || Is("garbled_reason") || Is("abi_1_0") || Is("abi_1_1")) {
      a.provider_availability = HostileAvailability;
      a.placement_subgraphs = HostileSubgraphs;
    }
    if (Is("case_isolation") || Is("abi_1_0") || Is("abi_1_1")) {
      a.needs_case_isolation = HostileNeedsCaseIsolation;
    }
    if (Is("abi_1_0")) a.struct_size = ONNXGATE_PLUGIN_API_SIZE_1_0;
    if (Is("abi_1_1")) a.struct_size = ONNXGATE_PLUGIN_API_SIZE_1_1;
    if (Is("timed_runs") || Is("negative_time") || Is("abi_1_2")) {
      a.timed_runs = HostileTimedRuns;
    }
    if (Is("abi_1_2")) a.struct_size = ONNXGATE_PLUGIN_API_SIZE_1_2;
    return a;
  }();
  return &api;
}
