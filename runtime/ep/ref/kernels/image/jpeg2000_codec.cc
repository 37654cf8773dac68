// JPEG 2000 (JP2 files and raw codestreams) through OpenJPEG.
#include <openjpeg.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

struct MemorySource {
  const uint8_t* data;
  size_t size;
  size_t pos;
};

OPJ_SIZE_T ReadFromMemory(void* out, OPJ_SIZE_T length, void* user) {
  MemorySource* src = static_cast<MemorySource*>(user);
  if (src->pos >= src->size) return static_cast<OPJ_SIZE_T>(-1);
  const size_t n = std::min<size_t>(length, src->size - src->pos);
  std::memcpy(out, src->data + src->pos, n);
  src->pos += n;
  return n;
}

OPJ_OFF_T SkipInMemory(OPJ_OFF_T length, void* user) {
  MemorySource* src = static_cast<MemorySource*>(user);
  if (length < 0) {
    if (static_cast<size_t>(-length) > src->pos) return -1;
    src->pos -= static_cast<size_t>(-length);
    return length;
  }
  const size_t n = std::min<size_t>(static_cast<size_t>(length), src->size - src->pos);
  if (n == 0 && length > 0) return -1;
  src->pos += n;
  return static_cast<OPJ_OFF_T>(n);
}

OPJ_BOOL SeekInMemory(OPJ_OFF_T position, void* user) {
  MemorySource* src = static_cast<MemorySource*>(user);
  if (position < 0 || static_cast<uint64_t>(position) > src->size) return OPJ_FALSE;
  src->pos = static_cast<size_t>(position);
  return OPJ_TRUE;
}

void KeepFirstError(const char* message, void* user) {
  std::string* first = static_cast<std::string*>(user);
  if (first->empty() && message != nullptr) {
    *first = message;
    while (!first->empty() && (first->back() == '\n' || first->back() == ' ')) first->pop_back();
  }
}

void IgnoreMessage(const char*, void*) {}

// Owns OpenJPEG's objects for one decode.
struct Jpeg2000Decode {
  opj_stream_t* stream = nullptr;
  opj_codec_t* codec = nullptr;
  opj_image_t* image = nullptr;
  ~Jpeg2000Decode() {
    if (image != nullptr) opj_image_destroy(image);
    if (codec != nullptr) opj_destroy_codec(codec);
    if (stream != nullptr) opj_stream_destroy(stream);
  }
};

// The sample of component `c` covering pixel (x, y) of the image, scaled to 8 bits: lower
// precisions stretched to 0..255, higher ones reduced to their high byte; signed samples are
// first offset to unsigned.
int Sample8(const opj_image_t& image, const opj_image_comp_t& c, int64_t x, int64_t y) {
  int64_t i = (image.x0 + x) / c.dx - c.x0;
  int64_t j = (image.y0 + y) / c.dy - c.y0;
  i = std::clamp<int64_t>(i, 0, c.w - 1);
  j = std::clamp<int64_t>(j, 0, c.h - 1);
  int64_t v = c.data[j * c.w + i];
  if (c.sgnd) v += int64_t{1} << (c.prec - 1);
  const int64_t max = (int64_t{1} << c.prec) - 1;
  v = std::clamp<int64_t>(v, 0, max);
  if (c.prec > 8) return static_cast<int>(v >> (c.prec - 8));
  if (c.prec < 8) return static_cast<int>((v * 255 + max / 2) / max);
  return static_cast<int>(v);
}

uint8_t Clamp8(double v) { return static_cast<uint8_t>(std::clamp(v + 0.5, 0.0, 255.0)); }

}  // namespace

StatusOr<RgbImage> DecodeJpeg2000(const uint8_t* data, size_t size) {
  static constexpr uint8_t kJp2Signature[] = {0,   0,   0,    0x0C, 'j',  'P',
                                              ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A};
  const bool jp2 =
      size >= sizeof kJp2Signature && std::memcmp(data, kJp2Signature, sizeof kJp2Signature) == 0;
  MemorySource src{data, size, 0};
  std::string error;
  Jpeg2000Decode d;
  d.codec = opj_create_decompress(jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K);
  d.stream = opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE);
  if (d.codec == nullptr || d.stream == nullptr) {
    return Unavailable("OpenJPEG could not allocate a decoder");
  }
  opj_set_error_handler(d.codec, KeepFirstError, &error);
  opj_set_warning_handler(d.codec, IgnoreMessage, nullptr);
  opj_set_info_handler(d.codec, IgnoreMessage, nullptr);
  opj_stream_set_user_data(d.stream, &src, nullptr);
  opj_stream_set_user_data_length(d.stream, size);
  opj_stream_set_read_function(d.stream, ReadFromMemory);
  opj_stream_set_skip_function(d.stream, SkipInMemory);
  opj_stream_set_seek_function(d.stream, SeekInMemory);
  opj_dparameters_t parameters;
  opj_set_default_decoder_parameters(&parameters);
  // Strict: a truncated codestream is an error, not a partially decoded image.
  if (!opj_setup_decoder(d.codec, &parameters) || !opj_decoder_set_strict_mode(d.codec, OPJ_TRUE) ||
      !opj_read_header(d.stream, d.codec, &d.image) || d.image == nullptr) {
    return InvalidArgument("not a decodable JPEG 2000 stream: " + error);
  }
  const int64_t width = static_cast<int64_t>(d.image->x1) - d.image->x0;
  const int64_t height = static_cast<int64_t>(d.image->y1) - d.image->y0;
  if (width <= 0 || height <= 0 || width * height > kMaxImagePixels || d.image->numcomps == 0) {
    return InvalidArgument("the JPEG 2000 image's size is invalid or too large to decode");
  }
  if (!opj_decode(d.codec, d.stream, d.image) || !opj_end_decompress(d.codec, d.stream)) {
    return InvalidArgument("not a decodable JPEG 2000 stream: " + error);
  }
  const opj_image_t& image = *d.image;
  if (image.color_space == OPJ_CLRSPC_CMYK || image.color_space == OPJ_CLRSPC_EYCC) {
    return Unimplemented("CMYK and e-YCC JPEG 2000 images are not decoded");
  }
  for (OPJ_UINT32 k = 0; k < image.numcomps; ++k) {
    const opj_image_comp_t& c = image.comps[k];
    if (c.data == nullptr || c.w == 0 || c.h == 0 || c.dx == 0 || c.dy == 0 || c.prec < 1 ||
        c.prec > 31) {
      return InvalidArgument("the JPEG 2000 stream has an invalid component " + std::to_string(k));
    }
  }
  // One or two components: gray (and alpha); three or more: color (and alpha or extras, which
  // are dropped), as YCbCr when the stream says sYCC.
  const bool color = image.numcomps >= 3;
  const bool ycc = color && image.color_space == OPJ_CLRSPC_SYCC;
  RgbImage out;
  out.height = height;
  out.width = width;
  out.rgb.resize(static_cast<size_t>(height * width * 3));
  uint8_t* p = out.rgb.data();
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x, p += 3) {
      if (!color) {
        p[0] = p[1] = p[2] = static_cast<uint8_t>(Sample8(image, image.comps[0], x, y));
        continue;
      }
      const int a = Sample8(image, image.comps[0], x, y);
      const int b = Sample8(image, image.comps[1], x, y);
      const int c = Sample8(image, image.comps[2], x, y);
      if (!ycc) {
        p[0] = static_cast<uint8_t>(a);
        p[1] = static_cast<uint8_t>(b);
        p[2] = static_cast<uint8_t>(c);
        continue;
      }
      // ITU-R BT.601 full-range YCbCr, as JFIF uses.
      p[0] = Clamp8(a + 1.402 * (c - 128));
      p[1] = Clamp8(a - 0.344136 * (b - 128) - 0.714136 * (c - 128));
      p[2] = Clamp8(a + 1.772 * (b - 128));
    }
  }
  return out;
}

}  // namespace onnxgate::ref
