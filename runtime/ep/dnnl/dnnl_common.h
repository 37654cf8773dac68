// What every kernel of the dnnl EP shares: the provider's oneDNN engine and stream, the one place
// where a dnnl::error becomes a Status, the thread pinning every oneDNN call runs under,
// execution with a scratchpad of its own, reorders between layouts, float32 memory descriptors of
// onnxgate tensors, and a per-kernel cache of primitives keyed by input shapes.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate::dnnl_ep {

// The CPU engine and the stream of one dnnl provider; its kernels hold it by shared_ptr.
// CPU execution in oneDNN is synchronous and a CPU stream keeps no state between executions, so
// concurrent Computes share the stream; what they must not share, the scratchpad, each execution
// allocates for itself (ExecuteWithScratchpad).
class DnnlContext {
 public:
  // A context whose primitives are created and run with `threads` threads (1 or more).
  // Unavailable when oneDNN cannot create a CPU engine.
  static StatusOr<std::shared_ptr<const DnnlContext>> Create(int threads = 1);

  const dnnl::engine& engine() const { return engine_; }
  const dnnl::stream& stream() const { return stream_; }

  // The threads every oneDNN call of this context runs with (ScopedPrimitiveThreads): the
  // intra-op threads of the sessions whose kernels hold it. A primitive is created and executed
  // under the same count, as oneDNN's OpenMP build sizes its work split and scratchpad at creation.
  int threads() const { return threads_; }

 private:
  DnnlContext(dnnl::engine engine, dnnl::stream stream, int threads)
      : engine_(std::move(engine)), stream_(std::move(stream)), threads_(threads) {}

  dnnl::engine engine_;
  dnnl::stream stream_;
  int threads_;
};

// Sets the calling thread's OpenMP thread count (Debian's oneDNN is built with OpenMP
// threading, and oneDNN sizes its parallel regions and its scratchpads from
// omp_get_max_threads()) to `threads` for the life of the object, and restores it afterwards.
// The count is a per-thread setting, so other threads are not affected.
class ScopedPrimitiveThreads {
 public:
  explicit ScopedPrimitiveThreads(int threads);
  ~ScopedPrimitiveThreads();
  ScopedPrimitiveThreads(const ScopedPrimitiveThreads&) = delete;
  ScopedPrimitiveThreads& operator=(const ScopedPrimitiveThreads&) = delete;

 private:
  int threads_ = 1;
  int saved_ = 0;
};

// The most threads a context may use: the processors OpenMP may run on (1 for a sequential
// oneDNN). More would time a contended machine, not the provider.
int MaxPrimitiveThreads();

// The one conversion of oneDNN's errors: "oneDNN <primitive>: <what oneDNN says> (status
// <name>)". oneDNN's `unimplemented` (no implementation for these shapes, formats or
// attributes) becomes Unimplemented, so a factory that meets it declines the node and the
// session places it on the next provider; invalid arguments become InvalidArgument, an
// allocation failure Unavailable, anything else Internal.
Status FromDnnlError(const std::string& primitive, const dnnl::error& e);

// Runs `body` (which calls oneDNN for `primitive`, e.g. "convolution_forward", and returns a
// Status) under ScopedPrimitiveThreads with `ctx`'s thread count, turning a dnnl::error into a
// Status with FromDnnlError. Every call into oneDNN goes through here, so no dnnl::error leaves
// the provider.
template <typename Body>
Status DnnlCall(const DnnlContext& ctx, const std::string& primitive, Body&& body) {
  ScopedPrimitiveThreads threads(ctx.threads());
  try {
    return body();
  } catch (const dnnl::error& e) {
    return FromDnnlError(primitive, e);
  }
}

// Attributes every primitive of the provider is created with: the scratchpad is the caller's
// (ExecuteWithScratchpad), never oneDNN's global one, whose primitives may not move between
// threads.
dnnl::primitive_attr DefaultAttr();

// Moves `pd` to oneDNN's reference implementation (the one named "ref:..."), for the few
// algorithms whose optimized implementations in oneDNN 2.x miss ONNX's default tolerance (rtol
// 1e-3, atol 1e-7): the AVX2 jit log is off by up to 14 times that near x = 1 and the jit
// soft_relu by up to 19 times for x < -15, measured against double precision. Call inside
// DnnlCall; returns false (leaving `pd` at its last implementation) when there is none.
template <typename PrimitiveDesc>
bool UseReferenceImplementation(PrimitiveDesc* pd) {
  while (std::string(pd->impl_info_str()).rfind("ref", 0) != 0) {
    if (!pd->next_impl()) return false;
  }
  return true;
}

// Executes `primitive` on the context's stream with `args` and a scratchpad of the size `pd`
// asks for, allocated for this execution alone. Call inside DnnlCall.
void ExecuteWithScratchpad(const DnnlContext& ctx, const dnnl::primitive& primitive,
                           const dnnl::primitive_desc_base& pd,
                           std::unordered_map<int, dnnl::memory> args);

// The reorder from layout `from` to layout `to` in `*reorder` and `*pd`, or neither when the
// layouts are the same. Call inside DnnlCall.
void MakeReorder(const DnnlContext& ctx, const dnnl::memory::desc& from,
                 const dnnl::memory::desc& to, std::optional<dnnl::reorder>* reorder,
                 std::optional<dnnl::reorder::primitive_desc>* pd);

// A memory in `desc`'s layout holding `source`'s contents: `source` itself when there is no
// `reorder` (MakeReorder found the layouts the same), else a new memory filled by it. Call
// inside DnnlCall.
dnnl::memory Reordered(const DnnlContext& ctx, const dnnl::memory& source,
                       const dnnl::memory::desc& desc, const std::optional<dnnl::reorder>& reorder,
                       const std::optional<dnnl::reorder::primitive_desc>& reorder_pd);

// Writes `source`'s contents into `dest` (of the same dims): with `reorder` (made by MakeReorder
// from source's layout to dest's), else a copy of the bytes, the layouts being one. Call inside
// DnnlCall.
void CopyInto(const DnnlContext& ctx, const dnnl::memory& source, const dnnl::memory& dest,
              const std::optional<dnnl::reorder>& reorder,
              const std::optional<dnnl::reorder::primitive_desc>& reorder_pd);

// oneDNN's dims of a plain (row-major, dense) float32 tensor; a scalar is [1].
dnnl::memory::dims DimsOf(const std::vector<int64_t>& dims);
// A dense row-major float32 memory descriptor of `dims` (of any rank from 1 to DNNL_MAX_NDIMS).
dnnl::memory::desc PlainDesc(const dnnl::memory::dims& dims);
// A float32 memory of `desc` over `data`, which oneDNN reads or writes but does not own.
dnnl::memory WrapMemory(const DnnlContext& ctx, const dnnl::memory::desc& desc, const float* data);

// Makes dims of a binary operation's operands fit oneDNN's rank limit and run faster: adjacent
// axes are merged where every operand either has the output's size on both or 1 on both (so the
// broadcast pattern is unchanged). `operands` are aligned to `out`'s rank (leading 1s added),
// each dim equal to the output's or 1; `out` has no zero dim.
// Returns the merged output dims and rewrites `operands` in place.
std::vector<int64_t> MergeBroadcastAxes(const std::vector<int64_t>& out,
                                        std::vector<std::vector<int64_t>>* operands);

// A kernel's primitives (with whatever goes with them: descriptors, reordered weights), one per
// key, usually the input shapes. Compute is const and may run from many threads: entries are
// built under a mutex (once per key) and handed out as shared_ptr, so dropping the oldest entry
// when more than kMaxEntries are held never pulls one from under a running Compute.
template <typename Entry>
class PrimitiveCache {
 public:
  static constexpr size_t kMaxEntries = 16;
  using Key = std::vector<int64_t>;
  using Factory = std::function<StatusOr<std::shared_ptr<const Entry>>()>;

  StatusOr<std::shared_ptr<const Entry>> Get(const Key& key, const Factory& make) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end()) return it->second;
    StatusOr<std::shared_ptr<const Entry>> made = make();
    if (!made.ok()) return made.status();
    if (entries_.size() >= kMaxEntries) {
      entries_.erase(order_.front());
      order_.pop_front();
    }
    entries_.emplace(key, *made);
    order_.push_back(key);
    return made;
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_.size();
  }

 private:
  mutable std::mutex mu_;
  mutable std::map<Key, std::shared_ptr<const Entry>> entries_;
  mutable std::deque<Key> order_;
};

// The bits of a float, for cache keys that include a float parameter.
int64_t FloatKey(float value);

// oneDNN's convolution, deconvolution and pooling run over 1, 2 or 3 spatial dims.
inline constexpr size_t kMaxSpatialRank = 3;

// OK for 1 to kMaxSpatialRank spatial dims, else Unimplemented: "oneDNN <does> over 1 to 3
// spatial dims; <what> has N" (`does`: "convolves", "deconvolves", ...).
Status CheckSpatialRank(size_t rank, const char* does, const std::string& what);

}  // namespace onnxgate::dnnl_ep
