// JPEG through libjpeg.
#include <csetjmp>
#include <string>

// jpeglib.h uses size_t and FILE without including what declares them.
// clang-format off
#include <cstdio>
#include <jpeglib.h>
// clang-format on

#include "runtime/ep/ref/kernels/image/image_codecs.h"

namespace onnxgate::ref {

namespace {

// libjpeg reports fatal errors through error_exit, which must not return: it jumps back to
// DecodeJpeg with the message.
struct JpegErrors {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void OnJpegError(j_common_ptr cinfo) {
  JpegErrors* errors = reinterpret_cast<JpegErrors*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, errors->message);
  std::longjmp(errors->jump, 1);
}

void IgnoreJpegMessage(j_common_ptr) {}

}  // namespace

StatusOr<RgbImage> DecodeJpeg(const uint8_t* data, size_t size) {
  // Everything with a destructor lives before setjmp, so the jump skips none.
  RgbImage image;
  std::string failure;
  jpeg_decompress_struct cinfo;
  JpegErrors errors;
  cinfo.err = jpeg_std_error(&errors.mgr);
  errors.mgr.error_exit = OnJpegError;
  errors.mgr.output_message = IgnoreJpegMessage;
  errors.message[0] = '\0';
  if (setjmp(errors.jump) != 0) {
    jpeg_destroy_decompress(&cinfo);
    return InvalidArgument(std::string("not a decodable JPEG stream: ") + errors.message);
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, const_cast<unsigned char*>(data), static_cast<unsigned long>(size));
  jpeg_read_header(&cinfo, TRUE);
  // libjpeg converts YCbCr and grayscale to RGB; CMYK and YCCK it cannot.
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    jpeg_destroy_decompress(&cinfo);
    return Unimplemented("CMYK and YCCK JPEG images are not decoded");
  }
  cinfo.out_color_space = JCS_RGB;
  if (static_cast<int64_t>(cinfo.image_width) * cinfo.image_height > kMaxImagePixels) {
    jpeg_destroy_decompress(&cinfo);
    return InvalidArgument("the JPEG image is too large to decode");
  }
  jpeg_start_decompress(&cinfo);
  image.height = cinfo.output_height;
  image.width = cinfo.output_width;
  image.rgb.resize(static_cast<size_t>(image.height * image.width * 3));
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = image.rgb.data() + static_cast<size_t>(cinfo.output_scanline) * image.width * 3;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return image;
}

}  // namespace onnxgate::ref
