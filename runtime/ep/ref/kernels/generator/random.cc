// The random generators on std::mt19937_64 and the standard distributions.
#include "runtime/ep/ref/kernels/generator/random.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

StatusOr<DataType> DtypeAttribute(const KernelInfo& info, DataType fallback) {
  if (!info.has_attribute("dtype")) return fallback;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t v, info.GetInt("dtype"));
  if (v < 0 || v > INT32_MAX || !IsValidDataType(static_cast<int32_t>(v))) {
    return InvalidArgument("'dtype' " + std::to_string(v) + " is not an ONNX tensor type");
  }
  return static_cast<DataType>(v);
}

// The output types the op's T (or T2) allows at `version`: the floats (bfloat16 from version 22),
// and for Bernoulli also the integers and bool.
std::vector<DataType> OutputTypes(const std::string& op, int version) {
  std::vector<DataType> types = {DataType::kFloat16, DataType::kFloat, DataType::kDouble};
  if (version >= 22 || op == "Bernoulli") types.push_back(DataType::kBFloat16);
  if (op == "Bernoulli") {
    types.insert(types.end(), {DataType::kInt8, DataType::kInt16, DataType::kInt32,
                               DataType::kInt64, DataType::kUint8, DataType::kUint16,
                               DataType::kUint32, DataType::kUint64, DataType::kBool});
  }
  return types;
}

bool Contains(const std::vector<DataType>& types, DataType t) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> RandomKernel::Create(const KernelInfo& info) {
  Config c;
  const std::string& op = info.op_type();
  c.like = op == "RandomUniformLike" || op == "RandomNormalLike" || op == "Bernoulli";
  if (op == "RandomNormal" || op == "RandomNormalLike") c.distribution = Distribution::kNormal;
  if (op == "Bernoulli") c.distribution = Distribution::kBernoulli;
  ONNXGATE_ASSIGN_OR_RETURN(c.dtype,
                            DtypeAttribute(info, c.like ? DataType::kUndefined : DataType::kFloat));
  c.output_types = OutputTypes(op, info.since_version());
  if (c.dtype != DataType::kUndefined && !Contains(c.output_types, c.dtype)) {
    return InvalidArgument(std::string("'dtype' ") + DataTypeShortName(c.dtype) +
                           " is not an output type of this op version");
  }
  if (!c.like) {
    ONNXGATE_ASSIGN_OR_RETURN(c.shape, info.GetInts("shape"));
  }
  for (int64_t d : c.shape) {
    if (d < 0) {
      return InvalidArgument("'shape' " + ListToString(c.shape) + " has a negative dim");
    }
  }
  if (c.distribution == Distribution::kUniform) {
    ONNXGATE_ASSIGN_OR_RETURN(float low, info.GetFloat("low", 0.0f));
    ONNXGATE_ASSIGN_OR_RETURN(float high, info.GetFloat("high", 1.0f));
    if (!(low <= high)) {
      return InvalidArgument("'low' " + std::to_string(low) + " is above 'high' " +
                             std::to_string(high));
    }
    c.low = low;
    c.high = high;
  } else if (c.distribution == Distribution::kNormal) {
    ONNXGATE_ASSIGN_OR_RETURN(float mean, info.GetFloat("mean", 0.0f));
    ONNXGATE_ASSIGN_OR_RETURN(float scale, info.GetFloat("scale", 1.0f));
    if (!(scale >= 0)) {
      return InvalidArgument("'scale' must be >= 0, got " + std::to_string(scale));
    }
    c.mean = mean;
    c.scale = scale;
  }
  if (info.has_attribute("seed")) {
    ONNXGATE_ASSIGN_OR_RETURN(float seed, info.GetFloat("seed"));
    c.seed = seed;
  }
  return std::unique_ptr<OpKernel>(new RandomKernel(std::move(c)));
}

Status RandomKernel::Compute(KernelContext& ctx) const {
  Shape shape(c_.shape);
  DataType dtype = c_.dtype;
  const Tensor* input = nullptr;
  if (c_.like) {
    ONNXGATE_ASSIGN_OR_RETURN(input, GetInput(ctx, 0, "input"));
    shape = input->shape();
    if (dtype == DataType::kUndefined) {
      // No 'dtype': the output takes the input's type, which must then be an output type.
      dtype = input->dtype();
      if (!Contains(c_.output_types, dtype)) {
        return InvalidArgument(std::string("without 'dtype' the output takes the input's type ") +
                               DataTypeShortName(dtype) + ", which is not an output type");
      }
    }
  }
  std::mt19937_64 engine;
  if (c_.seed.has_value()) {
    uint32_t bits;
    std::memcpy(&bits, &*c_.seed, sizeof bits);
    engine.seed(bits);
  } else {
    engine.seed(std::random_device{}());
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, NewTensor(DataType::kDouble, shape));
  double* v = out.mutable_data<double>();
  const int64_t n = shape.NumElements();
  if (c_.distribution == Distribution::kUniform) {
    std::uniform_real_distribution<double> d(c_.low, c_.high);
    for (int64_t i = 0; i < n; ++i) v[i] = d(engine);
  } else if (c_.distribution == Distribution::kNormal) {
    std::normal_distribution<double> d(c_.mean, c_.scale);
    for (int64_t i = 0; i < n; ++i) v[i] = d(engine);
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> p, ToDoubles(*input));
    std::uniform_real_distribution<double> d(0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) {
      if (!(p[i] >= 0 && p[i] <= 1)) {
        return InvalidArgument("probability " + std::to_string(p[i]) + " at element " +
                               std::to_string(i) + " is outside [0, 1]");
      }
      v[i] = d(engine) < p[i] ? 1.0 : 0.0;
    }
  }
  if (dtype == DataType::kBool) {
    Tensor b(DataType::kBool, shape);
    bool* bv = b.mutable_data<bool>();
    for (int64_t i = 0; i < n; ++i) bv[i] = v[i] != 0.0;
    ctx.set_output(0, std::move(b));
    return OkStatus();
  }
  std::vector<double> values(v, v + n);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor typed, FromDoubles(dtype, shape, values));
  ctx.set_output(0, std::move(typed));
  return OkStatus();
}

}  // namespace onnxgate::ref
