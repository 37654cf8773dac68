// PNG through libpng.
#include <png.h>

#include <csetjmp>
#include <cstring>
#include <string>

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

struct PngSource {
  const uint8_t* data;
  size_t size;
  size_t pos;
  char message[256];
};

void ReadFromMemory(png_structp png, png_bytep out, png_size_t length) {
  PngSource* src = static_cast<PngSource*>(png_get_io_ptr(png));
  if (length > src->size - src->pos) png_error(png, "the stream ends inside the image");
  std::memcpy(out, src->data + src->pos, length);
  src->pos += length;
}

void OnPngError(png_structp png, png_const_charp message) {
  PngSource* src = static_cast<PngSource*>(png_get_error_ptr(png));
  std::snprintf(src->message, sizeof src->message, "%s", message);
  png_longjmp(png, 1);
}

void IgnorePngWarning(png_structp, png_const_charp) {}

}  // namespace

StatusOr<RgbImage> DecodePng(const uint8_t* data, size_t size) {
  // Everything with a destructor lives before setjmp, so the jump skips none.
  RgbImage image;
  std::vector<png_bytep> rows;
  PngSource src{data, size, 0, {0}};
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, OnPngError, IgnorePngWarning);
  if (png == nullptr) return Unavailable("libpng could not allocate a reader");
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return Unavailable("libpng could not allocate a reader");
  }
  if (setjmp(png_jmpbuf(png)) != 0) {
    png_destroy_read_struct(&png, &info, nullptr);
    return InvalidArgument(std::string("not a decodable PNG stream: ") + src.message);
  }
  png_set_read_fn(png, &src, ReadFromMemory);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  if (static_cast<int64_t>(width) * height > kMaxImagePixels) {
    png_error(png, "the image is too large to decode");
  }
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != static_cast<size_t>(width) * 3) {
    png_error(png, "unexpected row layout after the transformations");
  }
  image.height = height;
  image.width = width;
  image.rgb.resize(static_cast<size_t>(image.height * image.width * 3));
  rows.resize(height);
  for (png_uint_32 y = 0; y < height; ++y) {
    rows[y] = image.rgb.data() + static_cast<size_t>(y) * width * 3;
  }
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return image;
}

}  // namespace onnxgate::ref
