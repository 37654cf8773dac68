// im2col and col2im over any number of spatial axes, driven by one precomputed index table.
#include "runtime/ep/ref/kernels/nn/im2col.h"

namespace onnxgate::ref {

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

std::vector<int64_t> WindowIndexTable(const WindowGeometry& g) {
  const size_t rank = g.rank();
  const int64_t kernel_size = Product(g.kernel);
  const int64_t positions = Product(g.output);
  std::vector<int64_t> table(static_cast<size_t>(kernel_size * positions));
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank - 1; i > 0; --i) in_strides[i - 1] = in_strides[i] * g.input[i];

  std::vector<int64_t> k(rank, 0);  // kernel offset, as a multi-index
  for (int64_t kf = 0; kf < kernel_size; ++kf) {
    std::vector<int64_t> o(rank, 0);  // output position, as a multi-index
    for (int64_t pf = 0; pf < positions; ++pf) {
      int64_t index = 0;
      for (size_t i = 0; i < rank && index >= 0; ++i) {
        int64_t coord = o[i] * g.strides[i] - g.pad_begin[i] + k[i] * g.dilations[i];
        index = (coord < 0 || coord >= g.input[i]) ? -1 : index + coord * in_strides[i];
      }
      table[kf * positions + pf] = index;
      for (size_t i = rank; i-- > 0;) {  // next output position
        if (++o[i] < g.output[i]) break;
        o[i] = 0;
      }
    }
    for (size_t i = rank; i-- > 0;) {  // next kernel offset
      if (++k[i] < g.kernel[i]) break;
      k[i] = 0;
    }
  }
  return table;
}

void Im2Col(const double* image, int64_t channels, const WindowGeometry& g,
            const std::vector<int64_t>& table, double* col) {
  const int64_t plane = Product(g.input);
  const int64_t rows_per_channel = Product(g.kernel);
  const int64_t positions = Product(g.output);
  for (int64_t c = 0; c < channels; ++c) {
    const double* src = image + c * plane;
    for (int64_t k = 0; k < rows_per_channel; ++k) {
      const int64_t* idx = table.data() + k * positions;
      double* dst = col + (c * rows_per_channel + k) * positions;
      for (int64_t p = 0; p < positions; ++p) dst[p] = idx[p] >= 0 ? src[idx[p]] : 0.0;
    }
  }
}

void Col2ImAdd(const double* col, int64_t channels, const WindowGeometry& g,
               const std::vector<int64_t>& table, double* image) {
  const int64_t plane = Product(g.input);
  const int64_t rows_per_channel = Product(g.kernel);
  const int64_t positions = Product(g.output);
  for (int64_t c = 0; c < channels; ++c) {
    double* dst = image + c * plane;
    for (int64_t k = 0; k < rows_per_channel; ++k) {
      const int64_t* idx = table.data() + k * positions;
      const double* src = col + (c * rows_per_channel + k) * positions;
      for (int64_t p = 0; p < positions; ++p) {
        if (idx[p] >= 0) dst[idx[p]] += src[p];
      }
    }
  }
}

}  // namespace onnxgate::ref
