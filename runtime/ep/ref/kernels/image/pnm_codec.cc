// Netpbm (PBM, PGM, PPM).
#include <cctype>
#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

// Reads the header's and plain formats' whitespace-separated decimal numbers, skipping
// '#' comments.
struct PnmReader {
  const uint8_t* data;
  size_t size;
  size_t pos = 2;

  StatusOr<int64_t> Number() {
    while (pos < size) {
      if (data[pos] == '#') {
        while (pos < size && data[pos] != '\n' && data[pos] != '\r') ++pos;
      } else if (std::isspace(data[pos])) {
        ++pos;
      } else {
        break;
      }
    }
    if (pos >= size || !std::isdigit(data[pos])) {
      return InvalidArgument("the PNM stream lacks a number at byte " + std::to_string(pos));
    }
    int64_t v = 0;
    while (pos < size && std::isdigit(data[pos])) {
      v = v * 10 + (data[pos++] - '0');
      if (v > (int64_t{1} << 31)) return InvalidArgument("a PNM number is too large");
    }
    return v;
  }

  // A plain PBM sample: a single '0' or '1', separators optional.
  StatusOr<int64_t> Bit() {
    while (pos < size && (std::isspace(data[pos]) || data[pos] == '#')) {
      if (data[pos] == '#') {
        while (pos < size && data[pos] != '\n') ++pos;
      } else {
        ++pos;
      }
    }
    if (pos >= size || (data[pos] != '0' && data[pos] != '1')) {
      return InvalidArgument("the PBM stream lacks a pixel at byte " + std::to_string(pos));
    }
    return data[pos++] - '0';
  }
};

}  // namespace

StatusOr<RgbImage> DecodePnm(const uint8_t* data, size_t size) {
  if (size < 3 || data[0] != 'P' || data[1] < '1' || data[1] > '6') {
    return InvalidArgument("not a PBM, PGM or PPM stream");
  }
  const int kind = data[1] - '0';
  const bool raw = kind >= 4;
  const bool bitmap = kind == 1 || kind == 4;
  const int channels = (kind == 3 || kind == 6) ? 3 : 1;
  PnmReader r{data, size};
  ONNXGATE_ASSIGN_OR_RETURN(int64_t width, r.Number());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t height, r.Number());
  int64_t maxval = 1;
  if (!bitmap) {
    ONNXGATE_ASSIGN_OR_RETURN(maxval, r.Number());
    if (maxval < 1 || maxval > 65535) {
      return InvalidArgument("the PNM maxval " + std::to_string(maxval) + " is outside [1, 65535]");
    }
  }
  if (width <= 0 || height <= 0 || width * height > kMaxImagePixels) {
    return InvalidArgument("the PNM size " + std::to_string(width) + "x" + std::to_string(height) +
                           " is invalid or too large");
  }
  // Raw data starts after exactly one whitespace byte.
  if (raw) {
    if (r.pos >= size || !std::isspace(data[r.pos])) {
      return InvalidArgument("the PNM header does not end in whitespace");
    }
    ++r.pos;
  }
  RgbImage image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<size_t>(width * height * 3));
  const int bytes_per_sample = maxval > 255 ? 2 : 1;
  const size_t raw_stride = bitmap ? static_cast<size_t>((width + 7) / 8)
                                   : static_cast<size_t>(width) * channels * bytes_per_sample;
  if (raw && static_cast<size_t>(height) * raw_stride > size - r.pos) {
    return InvalidArgument("the PNM pixel data is truncated");
  }
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      uint8_t* out = image.rgb.data() + static_cast<size_t>((y * width + x) * 3);
      if (bitmap) {
        int64_t bit;
        if (raw) {
          const uint8_t byte = data[r.pos + static_cast<size_t>(y) * raw_stride + x / 8];
          bit = (byte >> (7 - x % 8)) & 1;
        } else {
          ONNXGATE_ASSIGN_OR_RETURN(bit, r.Bit());
        }
        out[0] = out[1] = out[2] = bit ? 0 : 255;  // 1 is black
        continue;
      }
      uint8_t samples[3];
      for (int c = 0; c < channels; ++c) {
        int64_t v;
        if (raw) {
          const uint8_t* p = data + r.pos + static_cast<size_t>(y) * raw_stride +
                             static_cast<size_t>((x * channels + c) * bytes_per_sample);
          v = bytes_per_sample == 2 ? (p[0] << 8) | p[1] : p[0];
        } else {
          ONNXGATE_ASSIGN_OR_RETURN(v, r.Number());
        }
        if (v > maxval) {
          return InvalidArgument("a PNM sample " + std::to_string(v) + " exceeds maxval " +
                                 std::to_string(maxval));
        }
        samples[c] = static_cast<uint8_t>((v * 255 + maxval / 2) / maxval);
      }
      for (int c = 0; c < 3; ++c) out[c] = samples[channels == 3 ? c : 0];
    }
  }
  return image;
}

}  // namespace onnxgate::ref
