// Baseline TIFF without compression.
#include <algorithm>
#include <map>
#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

// Reads the stream's integers in its byte order ("II" little-endian, "MM" big-endian).
struct TiffReader {
  const uint8_t* data;
  size_t size;
  bool big_endian;

  uint32_t U16(size_t at) const {
    return big_endian ? (data[at] << 8) | data[at + 1] : data[at] | (data[at + 1] << 8);
  }
  uint32_t U32(size_t at) const {
    return big_endian ? (U16(at) << 16) | U16(at + 2) : U16(at) | (U16(at + 2) << 16);
  }
};

constexpr uint32_t kWidth = 256, kLength = 257, kBitsPerSample = 258, kCompression = 259,
                   kPhotometric = 262, kStripOffsets = 273, kSamplesPerPixel = 277,
                   kRowsPerStrip = 278, kStripByteCounts = 279, kPlanarConfig = 284;

}  // namespace

StatusOr<RgbImage> DecodeTiff(const uint8_t* data, size_t size) {
  if (size < 8) return InvalidArgument("not a TIFF stream");
  const TiffReader r{data, size, data[0] == 'M'};
  const size_t ifd = r.U32(4);
  if (ifd + 2 > size) return InvalidArgument("the TIFF directory is outside the stream");
  const uint32_t entries = r.U16(ifd);
  if (ifd + 2 + size_t{12} * entries > size) {
    return InvalidArgument("the TIFF directory is truncated");
  }
  // Each tag's values (SHORT or LONG), read from the entry or from where it points.
  std::map<uint32_t, std::vector<uint32_t>> tags;
  for (uint32_t i = 0; i < entries; ++i) {
    const size_t e = ifd + 2 + size_t{12} * i;
    const uint32_t tag = r.U16(e), type = r.U16(e + 2), count = r.U32(e + 4);
    if (type != 3 && type != 4) continue;  // only SHORT and LONG tags matter here
    const size_t width = type == 3 ? 2 : 4;
    if (count > (size / width) + 1) return InvalidArgument("a TIFF tag has too many values");
    size_t at = e + 8;
    if (count * width > 4) at = r.U32(e + 8);
    if (at + count * width > size) return InvalidArgument("a TIFF tag's values are truncated");
    std::vector<uint32_t>& values = tags[tag];
    for (uint32_t k = 0; k < count; ++k) {
      values.push_back(type == 3 ? r.U16(at + k * 2) : r.U32(at + k * 4));
    }
  }
  auto one = [&](uint32_t tag, uint32_t fallback) {
    auto it = tags.find(tag);
    return it == tags.end() || it->second.empty() ? fallback : it->second[0];
  };
  const int64_t width = one(kWidth, 0), height = one(kLength, 0);
  const uint32_t samples = one(kSamplesPerPixel, 1), photometric = one(kPhotometric, 1);
  if (width <= 0 || height <= 0 || width * height > kMaxImagePixels) {
    return InvalidArgument("the TIFF size is invalid or too large");
  }
  if (one(kCompression, 1) != 1) {
    return Unimplemented("compressed TIFF images are not decoded by this build (it needs libtiff)");
  }
  for (uint32_t bits : tags[kBitsPerSample]) {
    if (bits != 8) {
      return Unimplemented("TIFF images of other than 8 bits per sample are not decoded");
    }
  }
  if (one(kPlanarConfig, 1) != 1 || samples < 1 || samples > 4 || photometric > 2 ||
      (photometric == 2 && samples < 3)) {
    return Unimplemented("only chunky gray and RGB TIFF images are decoded");
  }
  const std::vector<uint32_t>& offsets = tags[kStripOffsets];
  const std::vector<uint32_t>& counts = tags[kStripByteCounts];
  const int64_t rows_per_strip = std::min<int64_t>(one(kRowsPerStrip, 0xFFFFFFFFu), height);
  if (offsets.empty() || offsets.size() != counts.size() || rows_per_strip <= 0) {
    return InvalidArgument("the TIFF strips are missing or inconsistent");
  }
  const size_t row_bytes = static_cast<size_t>(width) * samples;
  RgbImage image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<size_t>(width * height * 3));
  for (int64_t y = 0; y < height; ++y) {
    const size_t strip = static_cast<size_t>(y / rows_per_strip);
    if (strip >= offsets.size()) return InvalidArgument("the TIFF strips end before the image");
    const size_t within = static_cast<size_t>(y % rows_per_strip) * row_bytes;
    if (within + row_bytes > counts[strip] || offsets[strip] + within + row_bytes > size) {
      return InvalidArgument("the TIFF strip data is truncated");
    }
    const uint8_t* row = data + offsets[strip] + within;
    uint8_t* out = image.rgb.data() + static_cast<size_t>(y * width * 3);
    for (int64_t x = 0; x < width; ++x, out += 3) {
      const uint8_t* p = row + static_cast<size_t>(x) * samples;
      if (photometric == 2) {
        out[0] = p[0], out[1] = p[1], out[2] = p[2];
      } else {
        const uint8_t v = photometric == 0 ? static_cast<uint8_t>(255 - p[0]) : p[0];
        out[0] = out[1] = out[2] = v;
      }
    }
  }
  return image;
}

}  // namespace onnxgate::ref
