// ImageDecoder (opset 20): decodes one encoded image (a 1-D uint8 tensor) into [H, W, C] uint8
// pixels, C = 3 for "RGB" and "BGR", 1 for "Grayscale". The format is recognised by its
// signature. A stream that is no valid image of a known format gives an empty [0, 0, C] tensor,
// as the spec says; a valid one in a format this build cannot decode (WebP, JPEG 2000,
// compressed TIFF) gives Unimplemented.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class PixelFormat { kRgb, kBgr, kGrayscale };

class ImageDecoderKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit ImageDecoderKernel(PixelFormat format) : format_(format) {}
  PixelFormat format_;
};

}  // namespace onnxgate::ref
