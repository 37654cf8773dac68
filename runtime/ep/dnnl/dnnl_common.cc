// The dnnl EP's shared pieces: engine and stream, error conversion, thread pinning, execution.
#include "runtime/ep/dnnl/dnnl_common.h"

#include <algorithm>
#include <cstring>

#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#elif DNNL_CPU_THREADING_RUNTIME != DNNL_RUNTIME_SEQ
#error \
    "the dnnl EP pins oneDNN's threads through OpenMP; this oneDNN uses another threading runtime"
#endif

namespace onnxgate::dnnl_ep {

namespace {

const char* DnnlStatusName(dnnl_status_t status) {
  switch (status) {
    case dnnl_success: return "success";
    case dnnl_out_of_memory: return "out_of_memory";
    case dnnl_invalid_arguments: return "invalid_arguments";
    case dnnl_unimplemented: return "unimplemented";
    case dnnl_iterator_ends: return "iterator_ends";
    case dnnl_runtime_error: return "runtime_error";
    case dnnl_not_required: return "not_required";
  }
  return "unknown";
}

}  // namespace

StatusOr<std::shared_ptr<const DnnlContext>> DnnlContext::Create(int threads) {
  if (threads < 1) return InvalidArgument("a oneDNN context needs at least 1 thread");
  ScopedPrimitiveThreads scoped(threads);
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    return std::shared_ptr<const DnnlContext>(
        new DnnlContext(std::move(engine), std::move(stream), threads));
  } catch (const dnnl::error& e) {
    Status st = FromDnnlError("engine", e);
    return Unavailable("cannot create oneDNN's CPU engine: " + st.message());
  }
}

ScopedPrimitiveThreads::ScopedPrimitiveThreads(int threads) : threads_(threads) {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  saved_ = omp_get_max_threads();
  if (saved_ != threads_) omp_set_num_threads(threads_);
#endif
}

ScopedPrimitiveThreads::~ScopedPrimitiveThreads() {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  if (saved_ != threads_) omp_set_num_threads(saved_);
#endif
}

int MaxPrimitiveThreads() {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  return std::max(1, omp_get_num_procs());
#else
  return 1;
#endif
}

Status FromDnnlError(const std::string& primitive, const dnnl::error& e) {
  std::string message =
      "oneDNN " + primitive + ": " + e.what() + " (status " + DnnlStatusName(e.status) + ")";
  switch (e.status) {
    case dnnl_unimplemented: return Unimplemented(std::move(message));
    case dnnl_invalid_arguments: return InvalidArgument(std::move(message));
    case dnnl_out_of_memory: return Unavailable(std::move(message));
    default: return Internal(std::move(message));
  }
}

dnnl::primitive_attr DefaultAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

void ExecuteWithScratchpad(const DnnlContext& ctx, const dnnl::primitive& primitive,
                           const dnnl::primitive_desc_base& pd,
                           std::unordered_map<int, dnnl::memory> args) {
  const dnnl::memory::desc scratchpad_desc = pd.scratchpad_desc();
  if (scratchpad_desc.get_size() > 0) {
    args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad_desc, ctx.engine()));
  }
  dnnl::stream stream = ctx.stream();  // a handle to the provider's one stream
  primitive.execute(stream, args);
  stream.wait();
}

dnnl::memory::dims DimsOf(const std::vector<int64_t>& dims) {
  if (dims.empty()) return {1};
  return dnnl::memory::dims(dims.begin(), dims.end());
}

void MakeReorder(const DnnlContext& ctx, const dnnl::memory::desc& from,
                 const dnnl::memory::desc& to, std::optional<dnnl::reorder>* reorder,
                 std::optional<dnnl::reorder::primitive_desc>* pd) {
  if (from == to) return;
  pd->emplace(ctx.engine(), from, ctx.engine(), to, DefaultAttr());
  reorder->emplace(**pd);
}

dnnl::memory Reordered(const DnnlContext& ctx, const dnnl::memory& source,
                       const dnnl::memory::desc& desc, const std::optional<dnnl::reorder>& reorder,
                       const std::optional<dnnl::reorder::primitive_desc>& reorder_pd) {
  if (!reorder) return source;
  dnnl::memory out(desc, ctx.engine());
  ExecuteWithScratchpad(ctx, *reorder, *reorder_pd, {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, out}});
  return out;
}

void CopyInto(const DnnlContext& ctx, const dnnl::memory& source, const dnnl::memory& dest,
              const std::optional<dnnl::reorder>& reorder,
              const std::optional<dnnl::reorder::primitive_desc>& reorder_pd) {
  if (reorder) {
    ExecuteWithScratchpad(ctx, *reorder, *reorder_pd,
                          {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, dest}});
  } else {
    std::memcpy(dest.get_data_handle(), source.get_data_handle(), dest.get_desc().get_size());
  }
}

dnnl::memory::desc PlainDesc(const dnnl::memory::dims& dims) {
  dnnl::memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i > 0; --i) {
    strides[i - 1] = strides[i] * std::max<dnnl::memory::dim>(dims[i], 1);
  }
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

dnnl::memory WrapMemory(const DnnlContext& ctx, const dnnl::memory::desc& desc, const float* data) {
  // oneDNN takes a void* for every memory; sources are only read.
  return dnnl::memory(desc, ctx.engine(), const_cast<float*>(data));
}

std::vector<int64_t> MergeBroadcastAxes(const std::vector<int64_t>& out,
                                        std::vector<std::vector<int64_t>>* operands) {
  // An axis's pattern: for each operand, whether it spans the axis (size equal to the output's)
  // or is broadcast along it. Axes of size 1 in the output fit any pattern.
  auto spans = [&](size_t op, size_t axis) { return (*operands)[op][axis] == out[axis]; };
  std::vector<int64_t> merged_out;
  std::vector<std::vector<int64_t>> merged(operands->size());
  for (size_t axis = 0; axis < out.size(); ++axis) {
    if (out[axis] == 1) continue;  // contributes nothing; dropped
    bool same_pattern = !merged_out.empty();
    if (same_pattern) {
      for (size_t op = 0; op < operands->size(); ++op) {
        const bool prev_spans = merged[op].back() == merged_out.back();
        if (spans(op, axis) != prev_spans) same_pattern = false;
      }
    }
    if (same_pattern) {
      merged_out.back() *= out[axis];
      for (size_t op = 0; op < operands->size(); ++op) merged[op].back() *= (*operands)[op][axis];
    } else {
      merged_out.push_back(out[axis]);
      for (size_t op = 0; op < operands->size(); ++op) merged[op].push_back((*operands)[op][axis]);
    }
  }
  if (merged_out.empty()) {
    merged_out.push_back(1);
    for (auto& m : merged) m.push_back(1);
  }
  *operands = std::move(merged);
  return merged_out;
}

int64_t FloatKey(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return static_cast<int64_t>(bits);
}

Status CheckSpatialRank(size_t rank, const char* does, const std::string& what) {
  if (rank >= 1 && rank <= kMaxSpatialRank) return OkStatus();
  return Unimplemented(std::string("oneDNN ") + does + " over 1 to 3 spatial dims; " + what +
                       " has " + std::to_string(rank));
}

}  // namespace onnxgate::dnnl_ep
