// Windows BMP.
#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

uint32_t U16(const uint8_t* p) { return p[0] | (p[1] << 8); }
uint32_t U32(const uint8_t* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

// The 8-bit value of the bits `mask` selects in `v` (0 when the mask is empty).
uint8_t MaskedChannel(uint32_t v, uint32_t mask) {
  if (mask == 0) return 0;
  int shift = 0;
  while (((mask >> shift) & 1u) == 0) ++shift;
  const uint64_t max = mask >> shift;
  return static_cast<uint8_t>((uint64_t{(v & mask) >> shift} * 255u + max / 2) / max);
}

constexpr uint32_t kBiRgb = 0, kBiBitfields = 3;

}  // namespace

StatusOr<RgbImage> DecodeBmp(const uint8_t* data, size_t size) {
  if (size < 26 || data[0] != 'B' || data[1] != 'M') return InvalidArgument("not a BMP stream");
  const uint32_t pixel_offset = U32(data + 10);
  const uint32_t header_size = U32(data + 14);
  if (header_size + 14 > size) return InvalidArgument("the BMP header is truncated");
  int64_t width, height;
  uint32_t bits, compression = kBiRgb, colors = 0;
  if (header_size == 12) {  // BITMAPCOREHEADER
    width = U16(data + 18);
    height = static_cast<int16_t>(U16(data + 20));
    bits = U16(data + 24);
  } else if (header_size >= 40) {
    width = static_cast<int32_t>(U32(data + 18));
    height = static_cast<int32_t>(U32(data + 22));
    bits = U16(data + 28);
    compression = U32(data + 30);
    colors = U32(data + 46);
  } else {
    return InvalidArgument("the BMP header size " + std::to_string(header_size) + " is unknown");
  }
  const bool top_down = height < 0;
  if (top_down) height = -height;
  if (width <= 0 || height <= 0 || width * height > kMaxImagePixels) {
    return InvalidArgument("the BMP size " + std::to_string(width) + "x" + std::to_string(height) +
                           " is invalid or too large");
  }
  // Channel masks: BI_BITFIELDS stores them after a 40-byte header (inside larger headers).
  uint32_t masks[3] = {0x00FF0000u, 0x0000FF00u, 0x000000FFu};
  if (bits == 16) masks[0] = 0x7C00u, masks[1] = 0x03E0u, masks[2] = 0x001Fu;
  if (compression == kBiBitfields && (bits == 16 || bits == 32)) {
    if (14 + 40 + 12 > size) return InvalidArgument("the BMP channel masks are truncated");
    for (int c = 0; c < 3; ++c) masks[c] = U32(data + 14 + 40 + 4 * c);
  } else if (compression != kBiRgb) {
    return Unimplemented("BMP compression " + std::to_string(compression) +
                         " (RLE, JPEG or PNG inside BMP) is not decoded");
  }
  if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32) {
    return InvalidArgument("the BMP bit depth " + std::to_string(bits) + " is invalid");
  }
  // The palette follows the header: 3-byte entries for the core header, 4-byte otherwise.
  std::vector<uint8_t> palette;  // R, G, B per entry
  if (bits <= 8) {
    const size_t entry = header_size == 12 ? 3 : 4;
    const size_t count = colors != 0 ? colors : (size_t{1} << bits);
    const size_t start = 14 + header_size;
    if (count > 256 || start + count * entry > size) {
      return InvalidArgument("the BMP palette is truncated or too large");
    }
    for (size_t i = 0; i < count; ++i) {
      const uint8_t* e = data + start + i * entry;
      palette.insert(palette.end(), {e[2], e[1], e[0]});
    }
  }
  const size_t stride = ((static_cast<size_t>(width) * bits + 31) / 32) * 4;
  if (pixel_offset > size || static_cast<size_t>(height) * stride > size - pixel_offset) {
    return InvalidArgument("the BMP pixel data is truncated");
  }
  RgbImage image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<size_t>(width * height * 3));
  for (int64_t y = 0; y < height; ++y) {
    const int64_t stored_row = top_down ? y : height - 1 - y;
    const uint8_t* row = data + pixel_offset + static_cast<size_t>(stored_row) * stride;
    uint8_t* out = image.rgb.data() + static_cast<size_t>(y * width * 3);
    for (int64_t x = 0; x < width; ++x, out += 3) {
      if (bits <= 8) {
        const size_t bit = static_cast<size_t>(x) * bits;
        const uint32_t index = (row[bit / 8] >> (8 - bits - bit % 8)) & ((1u << bits) - 1);
        if (3 * index + 2 >= palette.size()) {
          return InvalidArgument("a BMP pixel names palette entry " + std::to_string(index) +
                                 " of " + std::to_string(palette.size() / 3));
        }
        out[0] = palette[3 * index];
        out[1] = palette[3 * index + 1];
        out[2] = palette[3 * index + 2];
      } else if (bits == 24) {
        const uint8_t* p = row + x * 3;
        out[0] = p[2];
        out[1] = p[1];
        out[2] = p[0];
      } else {
        const uint32_t v = bits == 16 ? U16(row + x * 2) : U32(row + x * 4);
        for (int c = 0; c < 3; ++c) out[c] = MaskedChannel(v, masks[c]);
      }
    }
  }
  return image;
}

}  // namespace onnxgate::ref
