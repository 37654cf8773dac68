// im2col and col2im over any number of spatial axes, the lowering that turns Conv and
// ConvTranspose into matrix products.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate::ref {

// For kernel offset k (flat over g.kernel) and output position p (flat over g.output), entry
// k * P + p is the flat index into one input plane (g.input) that the window reads, or -1 where
// it falls into padding. P is the number of output positions.
std::vector<int64_t> WindowIndexTable(const WindowGeometry& g);

// Unfolds `channels` input planes of `image` into `col`, a row-major [channels * K, P] matrix
// (K kernel offsets, P output positions), with zeros where the windows cover padding.
void Im2Col(const double* image, int64_t channels, const WindowGeometry& g,
            const std::vector<int64_t>& table, double* col);

// The adjoint of Im2Col: adds every entry of `col` ([channels * K, P]) onto the image element
// it was read from; entries that fall into padding are dropped.
void Col2ImAdd(const double* col, int64_t channels, const WindowGeometry& g,
               const std::vector<int64_t>& table, double* image);

// Product of `dims` (1 for none).
int64_t Product(const std::vector<int64_t>& dims);

}  // namespace onnxgate::ref
