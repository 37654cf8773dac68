// WebP through libwebp.
#include <webp/decode.h>

#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

std::string DescribeWebpStatus(VP8StatusCode code) {
  switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the stream ends inside the image";
    default: return "error " + std::to_string(static_cast<int>(code));
  }
}

}  // namespace

StatusOr<RgbImage> DecodeWebp(const uint8_t* data, size_t size) {
  WebPBitstreamFeatures features;
  const VP8StatusCode probed = WebPGetFeatures(data, size, &features);
  if (probed != VP8_STATUS_OK) {
    return InvalidArgument("not a decodable WebP stream: " + DescribeWebpStatus(probed));
  }
  if (features.has_animation) return Unimplemented("animated WebP images are not decoded");
  if (features.width <= 0 || features.height <= 0 ||
      static_cast<int64_t>(features.width) * features.height > kMaxImagePixels) {
    return InvalidArgument("the WebP image's size is invalid or too large to decode");
  }
  RgbImage image;
  image.height = features.height;
  image.width = features.width;
  image.rgb.resize(static_cast<size_t>(image.height * image.width * 3));
  // libwebp's default decoding: fancy chroma upsampling for lossy streams; alpha is dropped.
  const int stride = features.width * 3;
  if (WebPDecodeRGBInto(data, size, image.rgb.data(), image.rgb.size(), stride) == nullptr) {
    return InvalidArgument("not a decodable WebP stream: libwebp rejected it");
  }
  return image;
}

}  // namespace onnxgate::ref
