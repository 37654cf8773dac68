// MatMul and Gemm on oneDNN's matmul primitive.
#include "runtime/ep/dnnl/kernels/matmul.h"

#include <limits>
#include <string>
#include <unordered_map>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

namespace {

using dims = dnnl::memory::dims;

std::vector<int64_t> Aligned(const std::vector<int64_t>& d, size_t rank) {
  std::vector<int64_t> out(rank - d.size(), 1);
  out.insert(out.end(), d.begin(), d.end());
  return out;
}

// A 2-D [rows, cols] descriptor of a matrix stored row-major, or of the transpose of one stored
// as [cols, rows] when `transposed`.
dnnl::memory::desc MatrixDesc(int64_t rows, int64_t cols, bool transposed) {
  return dnnl::memory::desc({rows, cols}, dnnl::memory::data_type::f32,
                            transposed ? dims{1, rows} : dims{cols, 1});
}

// Column-major matrices of `dims` [..., K, N]: each matrix stored as its transpose, the batch
// dims dense over them.
dnnl::memory::desc ColumnMajorDesc(const dims& d) {
  const size_t rank = d.size();
  dims strides(rank, 1);
  strides[rank - 2] = 1;
  strides[rank - 1] = std::max<dnnl::memory::dim>(d[rank - 2], 1);
  dnnl::memory::dim matrix = strides[rank - 1] * std::max<dnnl::memory::dim>(d[rank - 1], 1);
  for (size_t i = rank - 2; i > 0; --i) {
    strides[i - 1] = matrix;
    matrix *= std::max<dnnl::memory::dim>(d[i - 1], 1);
  }
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32, strides);
}

// A constant input kept by a kernel: float32 matrices (rank >= 2) only, the ones it reorders.
std::optional<Tensor> ConstantMatrices(const KernelInfo& info, size_t index) {
  const Tensor* t = info.constant_input(index);
  if (t == nullptr || t->dtype() != DataType::kFloat || t->shape().rank() < 2) return std::nullopt;
  return *t;
}

// Runs the entry's product of `a` and `b` into `out`, with `bias` when the entry has one; the
// weights are the entry's reordered constant where it keeps one, else `b` as it lies.
Status RunProduct(const DnnlContext& dnnl, const MatMulEntry& entry, const Tensor& a,
                  const Tensor& b, const Tensor* bias, float* out) {
  return DnnlCall(dnnl, "matmul", [&]() -> Status {
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_SRC, WrapMemory(dnnl, entry.a, a.data<float>())},
        {DNNL_ARG_WEIGHTS,
         entry.b_constant ? *entry.b_constant : WrapMemory(dnnl, entry.b, b.data<float>())},
        {DNNL_ARG_DST, WrapMemory(dnnl, entry.y, out)}};
    if (entry.bias) {
      args.emplace(DNNL_ARG_BIAS, WrapMemory(dnnl, *entry.bias, bias->data<float>()));
    }
    ExecuteWithScratchpad(dnnl, entry.primitive, entry.pd, std::move(args));
    return OkStatus();
  });
}

// Runs the entry's 1x1 convolution over the rows of `a` into `out`, with `bias` when given.
Status RunProjection(const DnnlContext& dnnl, const ProjectionEntry& entry, const Tensor& a,
                     const Tensor* bias, float* out) {
  return DnnlCall(dnnl, "convolution_forward", [&]() -> Status {
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_SRC, WrapMemory(dnnl, entry.a, a.data<float>())},
        {DNNL_ARG_WEIGHTS, entry.weights},
        {DNNL_ARG_DST, WrapMemory(dnnl, entry.y, out)}};
    if (bias != nullptr) {
      args.emplace(DNNL_ARG_BIAS, WrapMemory(dnnl, entry.bias, bias->data<float>()));
    }
    ExecuteWithScratchpad(dnnl, entry.primitive, entry.pd, std::move(args));
    return OkStatus();
  });
}

// Reorders the constant `b`, stored as `plain`, into the primitive's weights layout, once.
void KeepReorderedConstant(const DnnlContext& dnnl, const dnnl::memory::desc& plain,
                           const Tensor& b, MatMulEntry* entry) {
  std::optional<dnnl::reorder> reorder;
  std::optional<dnnl::reorder::primitive_desc> reorder_pd;
  MakeReorder(dnnl, plain, entry->b, &reorder, &reorder_pd);
  entry->b_constant =
      Reordered(dnnl, WrapMemory(dnnl, plain, b.data<float>()), entry->b, reorder, reorder_pd);
}

Status RequireFloat(const Tensor& t, const char* name) {
  if (t.dtype() == DataType::kFloat) return OkStatus();
  return InvalidArgument(std::string("'") + name + "' must be float, got " +
                         DataTypeShortName(t.dtype()));
}

// The default attributes with `activation` as eltwise post-ops (applied after any bias).
dnnl::primitive_attr AttrWith(const std::vector<EltwiseStep>& activation) {
  dnnl::primitive_attr attr = DefaultAttr();
  if (activation.empty()) return attr;
  dnnl::post_ops post_ops;
  for (const EltwiseStep& step : activation) {
    post_ops.append_eltwise(1.0f, step.algorithm, step.alpha, step.beta);
  }
  attr.set_post_ops(post_ops);
  return attr;
}

// A bias along the last axis of a rank-`rank` Y of N = `n` columns: dims [1, ..., 1, N].
dnnl::memory::desc BiasDesc(size_t rank, int64_t n) {
  dims d(rank, 1);
  d.back() = n;
  return PlainDesc(d);
}

// OK when `bias` is [N] or [1, ..., 1, N] and of no higher rank than Y `y`, so that adding it
// broadcasts along Y's last axis alone.
Status CheckBiasAlongLastAxis(const Tensor& bias, const Shape& y) {
  const std::vector<int64_t>& d = bias.shape().dims();
  bool along_last = !d.empty() && d.size() <= y.rank() && d.back() == y.dims().back();
  for (size_t i = 0; along_last && i + 1 < d.size(); ++i) along_last = d[i] == 1;
  if (along_last) return OkStatus();
  return InvalidArgument("the bias " + bias.shape().ToString() + " is not [N] or [1, ..., 1, N] " +
                         "for Y " + y.ToString());
}

// OK when oneDNN has a float32 matmul carrying `epilogue`; Unimplemented otherwise. Whether one
// does depends on the bias and the post-ops, not on the shapes (oneDNN's reference matmul takes
// any shape whose attributes it takes), so one small primitive descriptor answers at load.
Status CheckEpilogueSupported(const DnnlContext& dnnl, const MatMulEpilogue& epilogue) {
  for (const EltwiseStep& step : epilogue.activation) {
    if (step.accurate) {
      return Unimplemented(
          "a MatMul's activation runs as a oneDNN post-op, which has no "
          "reference implementation to ask for");
    }
  }
  return DnnlCall(dnnl, "matmul", [&]() -> Status {
    const dnnl::memory::desc md = PlainDesc({2, 2});
    dnnl::matmul::desc desc = epilogue.bias ? dnnl::matmul::desc(md, md, BiasDesc(2, 2), md)
                                            : dnnl::matmul::desc(md, md, md);
    const dnnl::matmul::primitive_desc pd(desc, AttrWith(epilogue.activation), dnnl.engine());
    (void)pd;  // made, so oneDNN has an implementation
    return OkStatus();
  });
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> MatMulKernel::Create(const KernelInfo& info,
                                                         std::shared_ptr<const DnnlContext> dnnl,
                                                         MatMulEpilogue epilogue) {
  if (!epilogue.empty()) ONNXGATE_RETURN_IF_ERROR(CheckEpilogueSupported(*dnnl, epilogue));
  return std::unique_ptr<OpKernel>(
      new MatMulKernel(std::move(dnnl), ConstantMatrices(info, 1), std::move(epilogue)));
}

Status MatMulKernel::ComputeWithoutProduct(const Tensor* bias, Tensor* y) const {
  if (bias != nullptr) {
    const float* b = bias->data<float>();
    const int64_t n = bias->NumElements();
    float* out = y->mutable_data<float>();
    for (int64_t i = 0; i < y->NumElements(); ++i) out[i] = b[i % n];
  }
  if (epilogue_.activation.empty()) return OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(Tensor activated,
                            RunEltwise(*dnnl_, activation_cache_, *y, epilogue_.activation));
  *y = std::move(activated);
  return OkStatus();
}

StatusOr<std::shared_ptr<const ProjectionEntry>> MatMulKernel::Projection(int64_t rows, int64_t k,
                                                                          int64_t n,
                                                                          bool with_bias) const {
  auto make = [&]() -> StatusOr<std::shared_ptr<const ProjectionEntry>> {
    auto entry = std::make_shared<ProjectionEntry>();
    const auto f32 = dnnl::memory::data_type::f32;
    entry->a = dnnl::memory::desc({1, k, rows}, f32, dnnl::memory::format_tag::nwc);
    entry->y = dnnl::memory::desc({1, n, rows}, f32, dnnl::memory::format_tag::nwc);
    entry->bias = PlainDesc({n});
    // B [K, N] row-major as the convolution's weights [N outputs, K inputs, width 1].
    const dnnl::memory::desc b_plain({n, k, 1}, f32, dims{1, n, 1});
    const dnnl::memory::desc any({n, k, 1}, f32, dnnl::memory::format_tag::any);
    const Status made = DnnlCall(*dnnl_, "convolution_forward", [&]() -> Status {
      const auto prop = dnnl::prop_kind::forward_inference;
      const auto alg = dnnl::algorithm::convolution_direct;
      auto desc = with_bias ? dnnl::convolution_forward::desc(prop, alg, entry->a, any, entry->bias,
                                                              entry->y, {1}, {0}, {0})
                            : dnnl::convolution_forward::desc(prop, alg, entry->a, any, entry->y,
                                                              {1}, {0}, {0});
      entry->pd = dnnl::convolution_forward::primitive_desc(desc, AttrWith(epilogue_.activation),
                                                            dnnl_->engine());
      return OkStatus();
    });
    if (made.code() == StatusCode::kUnimplemented) {
      return std::shared_ptr<const ProjectionEntry>();  // none: the matmul runs
    }
    ONNXGATE_RETURN_IF_ERROR(made);
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "convolution_forward", [&]() -> Status {
      entry->primitive = dnnl::convolution_forward(entry->pd);
      std::optional<dnnl::reorder> reorder;
      std::optional<dnnl::reorder::primitive_desc> reorder_pd;
      MakeReorder(*dnnl_, b_plain, entry->pd.weights_desc(), &reorder, &reorder_pd);
      entry->weights = Reordered(*dnnl_, WrapMemory(*dnnl_, b_plain, b_constant_->data<float>()),
                                 entry->pd.weights_desc(), reorder, reorder_pd);
      return OkStatus();
    }));
    return std::shared_ptr<const ProjectionEntry>(std::move(entry));
  };
  return projection_cache_.Get({rows}, make);
}

Status MatMulKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_RETURN_IF_ERROR(RequireFloat(*a, "A"));
  ONNXGATE_RETURN_IF_ERROR(RequireFloat(*b, "B"));
  const Tensor* bias = nullptr;
  if (epilogue_.bias) {
    ONNXGATE_ASSIGN_OR_RETURN(bias, GetInput(ctx, 2, "bias"));
    ONNXGATE_RETURN_IF_ERROR(RequireFloat(*bias, "bias"));
  }
  const std::vector<int64_t>& da = a->shape().dims();
  const std::vector<int64_t>& db = b->shape().dims();
  if (da.empty() || db.empty()) {
    return InvalidArgument("A and B must have rank >= 1, got A " + a->shape().ToString() +
                           " and B " + b->shape().ToString());
  }
  if (bias != nullptr && (da.size() < 2 || db.size() < 2)) {
    return InvalidArgument("A and B of a MatMul with a bias must have rank >= 2, got A " +
                           a->shape().ToString() + " and B " + b->shape().ToString());
  }
  // numpy: a 1-D A is a row [1, K] and a 1-D B a column [K, 1]; the added dim is dropped again.
  std::vector<int64_t> a2 = da.size() == 1 ? std::vector<int64_t>{1, da[0]} : da;
  std::vector<int64_t> b2 = db.size() == 1 ? std::vector<int64_t>{db[0], 1} : db;
  const int64_t m = a2[a2.size() - 2];
  const int64_t k = a2.back();
  const int64_t n = b2.back();
  if (b2[b2.size() - 2] != k) {
    return InvalidArgument("A " + a->shape().ToString() + " and B " + b->shape().ToString() +
                           " do not agree on the inner dimension");
  }
  const std::vector<int64_t> batch_a(a2.begin(), a2.end() - 2);
  const std::vector<int64_t> batch_b(b2.begin(), b2.end() - 2);
  auto batch_shape = BroadcastShapeOf({Shape(batch_a), Shape(batch_b)});
  if (!batch_shape.ok()) {
    return batch_shape.status().WithContext("the batch dims of A " + a->shape().ToString() +
                                            " and B " + b->shape().ToString());
  }
  std::vector<int64_t> out_dims = batch_shape->dims();
  if (da.size() > 1) out_dims.push_back(m);
  if (db.size() > 1) out_dims.push_back(n);
  if (bias != nullptr) ONNXGATE_RETURN_IF_ERROR(CheckBiasAlongLastAxis(*bias, Shape(out_dims)));
  // The primitive writes every element of Y; without a product (K = 0) Y starts as zeros.
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            k > 0 ? NewUninitializedTensor(DataType::kFloat, Shape(out_dims))
                                  : NewTensor(DataType::kFloat, Shape(out_dims)));
  if (y.NumElements() == 0 || k == 0) {  // nothing to compute, or an empty sum: zeros
    if (y.NumElements() > 0) ONNXGATE_RETURN_IF_ERROR(ComputeWithoutProduct(bias, &y));
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  const bool b_is_constant = db.size() >= 2 && IsTheConstant(b_constant_, *b);
  const int64_t rows = a->NumElements() / k;  // k > 0 here
  // Every row of A against one B: a 1x1 convolution, its width (rows) within oneDNN's int dims.
  if (b_is_constant && db.size() == 2 && rows <= std::numeric_limits<int32_t>::max()) {
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ProjectionEntry> projection,
                              Projection(rows, k, n, bias != nullptr));
    if (projection) {
      ONNXGATE_RETURN_IF_ERROR(
          RunProjection(*dnnl_, *projection, *a, bias, y.mutable_data<float>()));
      ctx.set_output(0, std::move(y));
      return OkStatus();
    }
  }
  PrimitiveCache<MatMulEntry>::Key key = da;
  key.push_back(-1);
  key.insert(key.end(), db.begin(), db.end());
  key.push_back(b_is_constant ? 1 : 0);
  auto make = [&]() -> StatusOr<std::shared_ptr<const MatMulEntry>> {
    const size_t rank = batch_shape->rank();
    std::vector<std::vector<int64_t>> batches = {Aligned(batch_a, rank), Aligned(batch_b, rank)};
    std::vector<int64_t> batch = batch_shape->dims();
    if (!batch.empty()) batch = MergeBroadcastAxes(batch, &batches);
    if (batch.size() + 2 > DNNL_MAX_NDIMS) {
      return InvalidArgument("the batch dims of A " + a->shape().ToString() + " and B " +
                             b->shape().ToString() + " need more than oneDNN's " +
                             std::to_string(DNNL_MAX_NDIMS) + " dims");
    }
    auto with = [](std::vector<int64_t> d, int64_t r, int64_t c) {
      d.push_back(r);
      d.push_back(c);
      return DimsOf(d);
    };
    const dnnl::memory::desc a_md = PlainDesc(with(batch.empty() ? batch : batches[0], m, k));
    const dims b_dims = with(batch.empty() ? batch : batches[1], k, n);
    const dnnl::memory::desc b_plain = PlainDesc(b_dims);
    const dnnl::memory::desc b_md = b_is_constant ? ColumnMajorDesc(b_dims) : b_plain;
    const dnnl::memory::desc y_md = PlainDesc(with(batch, m, n));
    auto entry = std::make_shared<MatMulEntry>();
    if (bias != nullptr) entry->bias = BiasDesc(batch.size() + 2, n);
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "matmul", [&]() -> Status {
      dnnl::matmul::desc desc = entry->bias ? dnnl::matmul::desc(a_md, b_md, *entry->bias, y_md)
                                            : dnnl::matmul::desc(a_md, b_md, y_md);
      entry->pd =
          dnnl::matmul::primitive_desc(desc, AttrWith(epilogue_.activation), dnnl_->engine());
      entry->primitive = dnnl::matmul(entry->pd);
      entry->a = a_md;
      entry->b = b_md;
      entry->y = y_md;
      return OkStatus();
    }));
    if (b_is_constant) {
      ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "reorder", [&]() -> Status {
        KeepReorderedConstant(*dnnl_, b_plain, *b, entry.get());
        return OkStatus();
      }));
    }
    return std::shared_ptr<const MatMulEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const MatMulEntry> entry, cache_.Get(key, make));
  float* out = y.mutable_data<float>();
  ONNXGATE_RETURN_IF_ERROR(RunProduct(*dnnl_, *entry, *a, *b, bias, out));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> GemmKernel::Create(const KernelInfo& info,
                                                       std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t trans_a, info.GetInt("transA", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t trans_b, info.GetInt("transB", 0));
  ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 1.0f));
  ONNXGATE_ASSIGN_OR_RETURN(float beta, info.GetFloat("beta", 1.0f));
  return std::unique_ptr<OpKernel>(
      new GemmKernel(std::move(dnnl), trans_a != 0, trans_b != 0, alpha, beta,
                     trans_b != 0 ? std::nullopt : ConstantMatrices(info, 1)));
}

Status GemmKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  const Tensor* c = ctx.input_tensor(2);
  ONNXGATE_RETURN_IF_ERROR(RequireFloat(*a, "A"));
  ONNXGATE_RETURN_IF_ERROR(RequireFloat(*b, "B"));
  if (c != nullptr) ONNXGATE_RETURN_IF_ERROR(RequireFloat(*c, "C"));
  if (a->shape().rank() != 2 || b->shape().rank() != 2) {
    return InvalidArgument("A and B must be matrices, got A " + a->shape().ToString() + " and B " +
                           b->shape().ToString());
  }
  const int64_t m = trans_a_ ? a->shape()[1] : a->shape()[0];
  const int64_t k = trans_a_ ? a->shape()[0] : a->shape()[1];
  const int64_t kb = trans_b_ ? b->shape()[1] : b->shape()[0];
  const int64_t n = trans_b_ ? b->shape()[0] : b->shape()[1];
  if (k != kb) {
    return InvalidArgument("A " + a->shape().ToString() + (trans_a_ ? " (transposed)" : "") +
                           " and B " + b->shape().ToString() + (trans_b_ ? " (transposed)" : "") +
                           " do not agree on the inner dimension");
  }
  std::vector<int64_t> c_dims;
  if (c != nullptr) {
    if (c->shape().rank() > 2) {
      return InvalidArgument("C " + c->shape().ToString() + " does not broadcast to [" +
                             std::to_string(m) + "," + std::to_string(n) + "]");
    }
    c_dims = Aligned(c->shape().dims(), 2);
    if ((c_dims[0] != 1 && c_dims[0] != m) || (c_dims[1] != 1 && c_dims[1] != n)) {
      return InvalidArgument("C " + c->shape().ToString() + " does not broadcast to [" +
                             std::to_string(m) + "," + std::to_string(n) + "]");
    }
  }
  // The product writes every element of Y; without one (K = 0) Y starts as zeros.
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, k > 0 ? NewUninitializedTensor(DataType::kFloat, Shape{m, n})
                                            : NewTensor(DataType::kFloat, Shape{m, n}));
  if (y.NumElements() == 0) {
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  // A constant B stored [K, N] is reordered once to column-major (with transB it already is).
  const bool b_is_constant = IsTheConstant(b_constant_, *b);
  // C of [N] or [1, N] added once (alpha = beta = 1) is the primitive's bias, added as Y is
  // written instead of in a second pass; K = 0 leaves no primitive to carry it.
  const bool c_is_bias = c != nullptr && k > 0 && alpha_ == 1.0f && beta_ == 1.0f &&
                         c->shape().rank() >= 1 && c_dims[0] == 1 && c_dims[1] == n;
  PrimitiveCache<MatMulEntry>::Key key = {m, k, n, b_is_constant ? 1 : 0};
  key.insert(key.end(), c_dims.begin(), c_dims.end());
  auto make = [&]() -> StatusOr<std::shared_ptr<const MatMulEntry>> {
    const dnnl::memory::desc a_md = MatrixDesc(m, k, trans_a_);
    const dnnl::memory::desc b_plain = MatrixDesc(k, n, trans_b_);
    const dnnl::memory::desc b_md = b_is_constant ? MatrixDesc(k, n, true) : b_plain;
    const dnnl::memory::desc y_md = PlainDesc({m, n});
    auto entry = std::make_shared<MatMulEntry>();
    entry->a = a_md;
    entry->b = b_md;
    entry->y = y_md;
    if (c_is_bias) entry->bias = BiasDesc(2, n);
    if (k > 0) {
      ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "matmul", [&]() -> Status {
        dnnl::primitive_attr attr = DefaultAttr();
        if (alpha_ != 1.0f) attr.set_output_scales(0, {alpha_});
        dnnl::matmul::desc desc = entry->bias ? dnnl::matmul::desc(a_md, b_md, *entry->bias, y_md)
                                              : dnnl::matmul::desc(a_md, b_md, y_md);
        entry->pd = dnnl::matmul::primitive_desc(desc, attr, dnnl_->engine());
        entry->primitive = dnnl::matmul(entry->pd);
        if (b_is_constant) KeepReorderedConstant(*dnnl_, b_plain, *b, entry.get());
        return OkStatus();
      }));
    }
    if (c != nullptr && !c_is_bias) {
      entry->c = PlainDesc(DimsOf(c_dims));
      ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "binary", [&]() -> Status {
        dnnl::primitive_attr attr = DefaultAttr();
        if (beta_ != 1.0f) attr.set_scales(DNNL_ARG_SRC_1, 0, {beta_});
        dnnl::binary::desc desc(dnnl::algorithm::binary_add, y_md, entry->c, y_md);
        entry->add_pd.emplace(desc, attr, dnnl_->engine());
        entry->add.emplace(*entry->add_pd);
        return OkStatus();
      }));
    }
    return std::shared_ptr<const MatMulEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const MatMulEntry> entry, cache_.Get(key, make));
  float* out = y.mutable_data<float>();
  if (k > 0) {
    ONNXGATE_RETURN_IF_ERROR(RunProduct(*dnnl_, *entry, *a, *b, c, out));
  }
  if (entry->add) {
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "binary", [&]() -> Status {
      dnnl::memory y_mem = WrapMemory(*dnnl_, entry->y, out);
      ExecuteWithScratchpad(*dnnl_, *entry->add, *entry->add_pd,
                            {{DNNL_ARG_SRC_0, y_mem},
                             {DNNL_ARG_SRC_1, WrapMemory(*dnnl_, entry->c, c->data<float>())},
                             {DNNL_ARG_DST, y_mem}});
      return OkStatus();
    }));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
