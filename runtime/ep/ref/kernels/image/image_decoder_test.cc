// Tests of ImageDecoder: BMP (24-bit bottom-up with row padding, 8-bit palette, top-down), the
// Netpbm forms, PNG, JPEG, WebP and JPEG 2000 streams written by libpng, libjpeg, libwebp and
// OpenJPEG, the pixel formats, and streams that decode to the empty matrix or are refused.
#include "runtime/ep/ref/kernels/image/image_decoder.h"

#include <jpeglib.h>
#include <openjpeg.h>
#include <png.h>
#include <webp/encode.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/image/image_codecs.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

StatusOr<std::vector<Value>> Decode(const std::vector<uint8_t>& bytes,
                                    const std::string& format = "RGB") {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return RunNode(*registry, "y = ImageDecoder <pixel_format = \"" + format + "\"> (x)", 20,
                 {TensorValue<uint8_t>({static_cast<int64_t>(bytes.size())}, bytes)});
}

void Put32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}
void Put16(std::vector<uint8_t>& v, uint32_t x) {
  v.push_back(static_cast<uint8_t>(x));
  v.push_back(static_cast<uint8_t>(x >> 8));
}

// A BMP with a 40-byte info header; `palette` entries are B, G, R, 0.
std::vector<uint8_t> Bmp(int32_t width, int32_t height, int bits,
                         const std::vector<uint8_t>& palette, const std::vector<uint8_t>& pixels) {
  std::vector<uint8_t> v = {'B', 'M'};
  const uint32_t offset = 14 + 40 + static_cast<uint32_t>(palette.size());
  Put32(v, offset + static_cast<uint32_t>(pixels.size()));
  Put32(v, 0);
  Put32(v, offset);
  Put32(v, 40);
  Put32(v, static_cast<uint32_t>(width));
  Put32(v, static_cast<uint32_t>(height));
  Put16(v, 1);
  Put16(v, static_cast<uint32_t>(bits));
  for (int i = 0; i < 4; ++i) Put32(v, 0);  // compression BI_RGB, image size, resolutions
  Put32(v, static_cast<uint32_t>(palette.size() / 4));  // colors used
  Put32(v, 0);
  v.insert(v.end(), palette.begin(), palette.end());
  v.insert(v.end(), pixels.begin(), pixels.end());
  return v;
}

TEST(ImageDecoderTest, Bmp24BitBottomUpWithPadding) {
  // 2x2, rows stored bottom first, B G R per pixel, each row padded from 6 to 8 bytes.
  const auto bmp =
      Bmp(2, 2, 24, {}, {/*bottom*/ 1, 2, 3, 4, 5, 6, 0, 0, /*top*/ 7, 8, 9, 10, 11, 12, 0, 0});
  ASSERT_OK_AND_ASSIGN(auto y, Decode(bmp));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 2, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(9, 8, 7, 12, 11, 10, 3, 2, 1, 6, 5, 4));
  ASSERT_OK_AND_ASSIGN(y, Decode(bmp, "BGR"));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6));
}

TEST(ImageDecoderTest, Bmp8BitPaletteTopDown) {
  // Height -1: top-down. Palette: 0 red, 1 blue.
  const auto bmp = Bmp(3, -1, 8, {0, 0, 255, 0, 255, 0, 0, 0}, {1, 0, 1, 0});
  ASSERT_OK_AND_ASSIGN(auto y, Decode(bmp));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(0, 0, 255, 255, 0, 0, 0, 0, 255));
  // An index beyond the palette gives the empty matrix.
  ASSERT_OK_AND_ASSIGN(y, Decode(Bmp(1, 1, 8, {0, 0, 255, 0}, {5, 0, 0, 0})));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

TEST(ImageDecoderTest, Bmp16BitBitfields) {
  // The three masks (565) follow the 40-byte header, where the helper puts a palette; then the
  // compression field (offset 30) is set to BI_BITFIELDS.
  auto bmp = Bmp(2, 1, 16, {0x00, 0xF8, 0, 0, 0xE0, 0x07, 0, 0, 0x1F, 0x00, 0, 0},
                 {0x00, 0xF8, 0xE0, 0x07});
  bmp[30] = 3;
  ASSERT_OK_AND_ASSIGN(auto y, Decode(bmp));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(255, 0, 0, 0, 255, 0));
  // RLE8 (compression 1) is refused as unsupported.
  bmp[30] = 1;
  EXPECT_ERROR_CODE(Decode(bmp), kUnimplemented);
}

std::vector<uint8_t> Bytes(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

TEST(ImageDecoderTest, NetpbmForms) {
  ASSERT_OK_AND_ASSIGN(
      auto y, Decode(Bytes(std::string("P6\n# c\n2 1\n255\n") + "\x01\x02\x03\xFA\xFB\xFC")));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 2, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(1, 2, 3, 250, 251, 252));
  // Plain PGM with maxval 3 scales to 255; plain PBM's 1 is black.
  ASSERT_OK_AND_ASSIGN(y, Decode(Bytes("P2 2 1 3 0 3"), "Grayscale"));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(0, 255));
  ASSERT_OK_AND_ASSIGN(y, Decode(Bytes("P1\n3 1\n1 0 1\n")));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(0, 0, 0, 255, 255, 255, 0, 0, 0));
  // Truncated raw data.
  ASSERT_OK_AND_ASSIGN(y, Decode(Bytes("P5 4 4 255 \x01\x02")));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

TEST(ImageDecoderTest, PngWrittenByLibpng) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = 2;
  image.height = 1;
  image.format = PNG_FORMAT_RGBA;
  const uint8_t pixels[] = {10, 20, 30, 255, 40, 50, 60, 0};
  png_alloc_size_t size = 0;
  ASSERT_TRUE(png_image_write_to_memory(&image, nullptr, &size, 0, pixels, 0, nullptr));
  std::vector<uint8_t> png(size);
  ASSERT_TRUE(png_image_write_to_memory(&image, png.data(), &size, 0, pixels, 0, nullptr));
  png.resize(size);
  // Alpha is dropped, not composited.
  ASSERT_OK_AND_ASSIGN(auto y, Decode(png));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(10, 20, 30, 40, 50, 60));
  ASSERT_OK_AND_ASSIGN(y, Decode(png, "Grayscale"));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 2, 1));
  // 0.299 * 10 + 0.587 * 20 + 0.114 * 30 = 18.15; 0.299 * 40 + 0.587 * 50 + 0.114 * 60 = 48.15.
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(18, 48));
  // A corrupted stream gives the empty matrix.
  png.resize(png.size() / 2);
  ASSERT_OK_AND_ASSIGN(y, Decode(png));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

TEST(ImageDecoderTest, JpegWrittenByLibjpeg) {
  // A flat 16x16 gray image survives JPEG's quantization exactly.
  jpeg_compress_struct cinfo;
  jpeg_error_mgr err;
  cinfo.err = jpeg_std_error(&err);
  jpeg_create_compress(&cinfo);
  unsigned char* out = nullptr;
  unsigned long out_size = 0;
  jpeg_mem_dest(&cinfo, &out, &out_size);
  cinfo.image_width = 16;
  cinfo.image_height = 16;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_start_compress(&cinfo, TRUE);
  std::vector<uint8_t> row(16 * 3, 128);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&cinfo, &r, 1);
  }
  jpeg_finish_compress(&cinfo);
  std::vector<uint8_t> jpeg(out, out + out_size);
  jpeg_destroy_compress(&cinfo);
  std::free(out);
  ASSERT_OK_AND_ASSIGN(auto y, Decode(jpeg));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(16, 16, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ::testing::Each(128));
  jpeg.resize(40);
  ASSERT_OK_AND_ASSIGN(y, Decode(jpeg));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

// A little-endian baseline TIFF of `width` x 1 pixels: one IFD, one strip after it.
std::vector<uint8_t> Tiff(uint32_t width, uint32_t samples, uint32_t photometric,
                          uint32_t compression, const std::vector<uint8_t>& strip) {
  std::vector<uint8_t> v = {'I', 'I', 42, 0};
  Put32(v, 8);
  const std::vector<std::pair<uint32_t, uint32_t>> tags = {
      {256, width},
      {257, 1},
      {259, compression},
      {262, photometric},
      {273, 8 + 2 + 7 * 12 + 4},
      {277, samples},
      {279, static_cast<uint32_t>(strip.size())}};
  Put16(v, static_cast<uint32_t>(tags.size()));
  for (const auto& [tag, value] : tags) {
    Put16(v, tag);
    Put16(v, 4);  // LONG
    Put32(v, 1);
    Put32(v, value);
  }
  Put32(v, 0);  // no next IFD
  v.insert(v.end(), strip.begin(), strip.end());
  return v;
}

TEST(ImageDecoderTest, UncompressedTiff) {
  ASSERT_OK_AND_ASSIGN(auto y, Decode(Tiff(2, 3, 2, 1, {1, 2, 3, 4, 5, 6})));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 2, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(1, 2, 3, 4, 5, 6));
  // WhiteIsZero gray.
  ASSERT_OK_AND_ASSIGN(y, Decode(Tiff(2, 1, 0, 1, {0, 255}), "Grayscale"));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(255, 0));
  // LZW (5) needs libtiff; a strip shorter than the image is undecodable.
  EXPECT_ERROR_CODE(Decode(Tiff(2, 3, 2, 5, {1, 2, 3, 4, 5, 6})), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(y, Decode(Tiff(2, 3, 2, 1, {1, 2, 3})));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

TEST(ImageDecoderTest, WebpWrittenByLibwebp) {
  const uint8_t pixels[] = {10,  20,  30,  40,  50,  60,  70,  80,  90,
                            100, 110, 120, 130, 140, 150, 160, 170, 180};
  uint8_t* out = nullptr;
  const size_t size = WebPEncodeLosslessRGB(pixels, 3, 2, 9, &out);
  ASSERT_GT(size, 0u);
  std::vector<uint8_t> webp(out, out + size);
  WebPFree(out);
  ASSERT_OK_AND_ASSIGN(auto y, Decode(webp));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 3, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAreArray(pixels));
  ASSERT_OK_AND_ASSIGN(y, Decode(webp, "BGR"));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]),
              ::testing::ElementsAreArray({30, 20, 10, 60, 50, 40, 90, 80, 70, 120, 110, 100, 150,
                                           140, 130, 180, 170, 160}));
  // A lossy flat image comes back close to its color.
  const std::vector<uint8_t> flat(16 * 16 * 3, 128);
  const size_t lossy_size = WebPEncodeRGB(flat.data(), 16, 16, 48, 90, &out);
  ASSERT_GT(lossy_size, 0u);
  std::vector<uint8_t> lossy(out, out + lossy_size);
  WebPFree(out);
  ASSERT_OK_AND_ASSIGN(y, Decode(lossy));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(16, 16, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]),
              ::testing::Each(::testing::AllOf(::testing::Ge(124), ::testing::Le(132))));
  // Truncated or corrupted streams give the empty matrix.
  std::vector<uint8_t> truncated(webp.begin(), webp.begin() + webp.size() / 2);
  ASSERT_OK_AND_ASSIGN(y, Decode(truncated));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
  std::vector<uint8_t> corrupt = webp;
  std::fill(corrupt.begin() + 12, corrupt.end(), 0xFF);
  ASSERT_OK_AND_ASSIGN(y, Decode(corrupt, "Grayscale"));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 1));
  ASSERT_OK_AND_ASSIGN(y, Decode(Bytes(std::string("RIFF\0\0\0\0WEBPVP8 ", 16))));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

// An in-memory sink for OpenJPEG's encoder.
struct MemorySink {
  std::vector<uint8_t> bytes;
  size_t pos = 0;
};

OPJ_SIZE_T WriteToSink(void* data, OPJ_SIZE_T n, void* user) {
  MemorySink* sink = static_cast<MemorySink*>(user);
  if (sink->bytes.size() < sink->pos + n) sink->bytes.resize(sink->pos + n);
  std::memcpy(sink->bytes.data() + sink->pos, data, n);
  sink->pos += n;
  return n;
}
OPJ_OFF_T SkipInSink(OPJ_OFF_T n, void* user) {
  MemorySink* sink = static_cast<MemorySink*>(user);
  sink->pos += static_cast<size_t>(n);
  if (sink->bytes.size() < sink->pos) sink->bytes.resize(sink->pos);
  return n;
}
OPJ_BOOL SeekInSink(OPJ_OFF_T n, void* user) {
  static_cast<MemorySink*>(user)->pos = static_cast<size_t>(n);
  return OPJ_TRUE;
}

// A lossless JPEG 2000 stream (JP2 file or raw codestream) of `components` planes of
// `width` x `height` samples of `precision` bits.
std::vector<uint8_t> Jpeg2000(OPJ_CODEC_FORMAT format, int width, int height, int precision,
                              const std::vector<std::vector<int>>& planes) {
  const OPJ_UINT32 components = static_cast<OPJ_UINT32>(planes.size());
  std::vector<opj_image_cmptparm_t> params(components);
  for (auto& p : params) {
    std::memset(&p, 0, sizeof p);
    p.dx = p.dy = 1;
    p.w = static_cast<OPJ_UINT32>(width);
    p.h = static_cast<OPJ_UINT32>(height);
    p.prec = static_cast<OPJ_UINT32>(precision);
  }
  opj_image_t* image = opj_image_create(components, params.data(),
                                        components == 1 ? OPJ_CLRSPC_GRAY : OPJ_CLRSPC_SRGB);
  image->x0 = image->y0 = 0;
  image->x1 = static_cast<OPJ_UINT32>(width);
  image->y1 = static_cast<OPJ_UINT32>(height);
  for (OPJ_UINT32 c = 0; c < components; ++c) {
    std::copy(planes[c].begin(), planes[c].end(), image->comps[c].data);
  }
  opj_cparameters_t parameters;
  opj_set_default_encoder_parameters(&parameters);
  parameters.numresolution = 1;  // the image is smaller than the default 6 levels need
  opj_codec_t* codec = opj_create_compress(format);
  MemorySink sink;
  opj_stream_t* stream = opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_FALSE);
  opj_stream_set_user_data(stream, &sink, nullptr);
  opj_stream_set_write_function(stream, WriteToSink);
  opj_stream_set_skip_function(stream, SkipInSink);
  opj_stream_set_seek_function(stream, SeekInSink);
  const bool ok = opj_setup_encoder(codec, &parameters, image) &&
                  opj_start_compress(codec, image, stream) && opj_encode(codec, stream) &&
                  opj_end_compress(codec, stream);
  opj_stream_destroy(stream);
  opj_destroy_codec(codec);
  opj_image_destroy(image);
  if (!ok) return {};
  return sink.bytes;
}

TEST(ImageDecoderTest, Jpeg2000WrittenByOpenjpeg) {
  const auto jp2 = Jpeg2000(
      OPJ_CODEC_JP2, 3, 2, 8,
      {{10, 40, 70, 100, 130, 160}, {20, 50, 80, 110, 140, 170}, {30, 60, 90, 120, 150, 180}});
  ASSERT_FALSE(jp2.empty());
  ASSERT_OK_AND_ASSIGN(auto y, Decode(jp2));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 3, 3));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]),
              ::testing::ElementsAreArray({10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130,
                                           140, 150, 160, 170, 180}));
  // A raw 12-bit gray codestream: samples reduced to their high byte.
  const auto j2k = Jpeg2000(OPJ_CODEC_J2K, 2, 2, 12, {{0x000, 0xABC, 0xFFF, 0x7F0}});
  ASSERT_FALSE(j2k.empty());
  ASSERT_OK_AND_ASSIGN(y, Decode(j2k, "Grayscale"));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 2, 1));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(0x00, 0xAB, 0xFF, 0x7F));
  // Truncated streams and a codestream signature followed by garbage give the empty matrix.
  for (size_t keep : {jp2.size() - 4, jp2.size() / 2, size_t{20}}) {
    ASSERT_OK_AND_ASSIGN(y, Decode(std::vector<uint8_t>(jp2.begin(), jp2.begin() + keep)));
    EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3)) << keep;
  }
  std::vector<uint8_t> garbage = {0xFF, 0x4F, 0xFF, 0x51};
  garbage.resize(64, 0xEE);
  ASSERT_OK_AND_ASSIGN(y, Decode(garbage));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 3));
}

TEST(ImageDecoderTest, UnknownUndecodableAndRefusedInputs) {
  ASSERT_OK_AND_ASSIGN(auto y, Decode({1, 2, 3}, "Grayscale"));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0, 1));
  EXPECT_ERROR_CODE(Decode({1, 2, 3}, "CMYK"), kInvalidArgument);
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  EXPECT_ERROR_CODE(
      RunNode(*registry, "y = ImageDecoder (x)", 20, {TensorValue<uint8_t>({1, 2}, {1, 2})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
