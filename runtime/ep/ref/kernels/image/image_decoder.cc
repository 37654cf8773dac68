// ImageDecoder.
#include "runtime/ep/ref/kernels/image/image_decoder.h"

#include <cstring>
#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

bool StartsWith(const uint8_t* data, size_t size, const char* magic, size_t n) {
  return size >= n && std::memcmp(data, magic, n) == 0;
}

// Decodes by signature; NotFound when no known format's signature matches.
StatusOr<RgbImage> Decode(const uint8_t* data, size_t size) {
  if (StartsWith(data, size, "\xFF\xD8\xFF", 3)) return DecodeJpeg(data, size);
  if (StartsWith(data, size, "\x89PNG\r\n\x1A\n", 8)) return DecodePng(data, size);
  if (StartsWith(data, size, "BM", 2)) return DecodeBmp(data, size);
  if (size >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6') return DecodePnm(data, size);
  if (StartsWith(data, size, "II*\0", 4) || StartsWith(data, size, "MM\0*", 4)) {
    return DecodeTiff(data, size);
  }
  if (size >= 12 && std::memcmp(data, "RIFF", 4) == 0 && std::memcmp(data + 8, "WEBP", 4) == 0) {
    return DecodeWebp(data, size);
  }
  if (StartsWith(data, size, "\0\0\0\x0CjP  \r\n\x87\n", 12) ||
      StartsWith(data, size, "\xFF\x4F\xFF\x51", 4)) {
    return DecodeJpeg2000(data, size);
  }
  return NotFound("the stream starts with no known image signature");
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> ImageDecoderKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string name, info.GetString("pixel_format", "RGB"));
  PixelFormat format;
  if (name == "RGB") {
    format = PixelFormat::kRgb;
  } else if (name == "BGR") {
    format = PixelFormat::kBgr;
  } else if (name == "Grayscale") {
    format = PixelFormat::kGrayscale;
  } else {
    return InvalidArgument("'pixel_format' must be \"RGB\", \"BGR\" or \"Grayscale\", got \"" +
                           name + "\"");
  }
  return std::unique_ptr<OpKernel>(new ImageDecoderKernel(format));
}

Status ImageDecoderKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* encoded, GetInput(ctx, 0, "encoded_stream"));
  if (encoded->dtype() != DataType::kUint8 || encoded->shape().rank() != 1) {
    return InvalidArgument(std::string("'encoded_stream' must be a 1-D uint8 tensor, got ") +
                           DataTypeShortName(encoded->dtype()) + encoded->shape().ToString());
  }
  const int64_t channels = format_ == PixelFormat::kGrayscale ? 1 : 3;
  StatusOr<RgbImage> decoded =
      Decode(encoded->data<uint8_t>(), static_cast<size_t>(encoded->NumElements()));
  if (!decoded.ok()) {
    if (decoded.status().code() == StatusCode::kUnimplemented) return decoded.status();
    // Not decodable: the spec's empty matrix.
    ONNXGATE_ASSIGN_OR_RETURN(Tensor empty, NewTensor(DataType::kUint8, Shape{0, 0, channels}));
    ctx.set_output(0, std::move(empty));
    return OkStatus();
  }
  const RgbImage& image = *decoded;
  ONNXGATE_ASSIGN_OR_RETURN(
      Tensor y, NewTensor(DataType::kUint8, Shape{image.height, image.width, channels}));
  uint8_t* out = y.mutable_data<uint8_t>();
  const int64_t pixels = image.height * image.width;
  for (int64_t i = 0; i < pixels; ++i) {
    const uint8_t* p = image.rgb.data() + 3 * i;
    switch (format_) {
      case PixelFormat::kRgb: std::memcpy(out + 3 * i, p, 3); break;
      case PixelFormat::kBgr:
        out[3 * i] = p[2];
        out[3 * i + 1] = p[1];
        out[3 * i + 2] = p[0];
        break;
      case PixelFormat::kGrayscale:
        // ITU-R 601-2 luma in 16-bit fixed point, rounded (the weights sum to 65536).
        out[i] = static_cast<uint8_t>((p[0] * 19595 + p[1] * 38470 + p[2] * 7471 + 0x8000) >> 16);
        break;
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
