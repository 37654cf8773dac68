// Decoders of the still-image formats ImageDecoder reads, each from an encoded byte stream to
// 8-bit RGB. InvalidArgument when the stream is not a valid image of the format; Unimplemented
// for a valid variant this build does not decode.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate::ref {

// An image as height x width pixels of R, G, B bytes, row by row from the top.
struct RgbImage {
  int64_t height = 0;
  int64_t width = 0;
  std::vector<uint8_t> rgb;
};

// Largest image decoded: a stream could declare any size, so huge ones are refused.
inline constexpr int64_t kMaxImagePixels = int64_t{1} << 28;

// Baseline and progressive JPEG through libjpeg, with its default ("fancy") chroma upsampling
// and the accurate integer inverse DCT.
StatusOr<RgbImage> DecodeJpeg(const uint8_t* data, size_t size);
// PNG through libpng: palettes and low bit depths expanded, 16-bit samples reduced to their
// high byte, alpha dropped, gray replicated.
StatusOr<RgbImage> DecodePng(const uint8_t* data, size_t size);
// Windows BMP: 1, 4, 8, 24 and 32 bits per pixel (BI_RGB), 16 and 32 with BI_BITFIELDS masks.
StatusOr<RgbImage> DecodeBmp(const uint8_t* data, size_t size);
// Baseline TIFF without compression: 8-bit chunky RGB (extra samples ignored) and gray
// (BlackIsZero or WhiteIsZero); compressed TIFF is Unimplemented.
StatusOr<RgbImage> DecodeTiff(const uint8_t* data, size_t size);
// Netpbm: PBM, PGM and PPM in plain (P1-P3) and raw (P4-P6) forms; samples are scaled from
// maxval to 255.
StatusOr<RgbImage> DecodePnm(const uint8_t* data, size_t size);
// WebP (lossy, lossless, extended with alpha) through libwebp with its default fancy chroma
// upsampling, alpha dropped; animated WebP is Unimplemented.
StatusOr<RgbImage> DecodeWebp(const uint8_t* data, size_t size);
// JPEG 2000, as a JP2 file or a raw codestream, through OpenJPEG in strict mode (a truncated
// codestream is invalid): gray (with alpha) replicated, sRGB and sYCC color with extra components
// dropped; samples scaled to 8 bits. CMYK and e-YCC are Unimplemented.
StatusOr<RgbImage> DecodeJpeg2000(const uint8_t* data, size_t size);

}  // namespace onnxgate::ref
