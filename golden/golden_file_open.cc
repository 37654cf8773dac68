// OpenGoldenFile: regular-file checks, one read, and libhdf5's core driver over the bytes read.
#include "golden/golden_file_open.h"

#include <atomic>
#include <cstring>

#include "golden/golden_limits.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {

namespace {

// HDF5's format signature; the superblock starts at byte 0 or, after a user block, at 512, 1024,
// 2048, ... (H5Fis_hdf5 searches the same places).
constexpr char kSignature[] = "\x89HDF\r\n\x1a\n";
constexpr size_t kSignatureBytes = sizeof(kSignature) - 1;

bool HasHdf5Signature(const std::string& bytes) {
  for (size_t at = 0; at + kSignatureBytes <= bytes.size(); at = at == 0 ? 512 : at * 2) {
    if (std::memcmp(bytes.data() + at, kSignature, kSignatureBytes) == 0) return true;
  }
  return false;
}

// A file name no file can have (/dev/null is not a folder), so the core driver's "does a file of
// this name exist" open fails at once with ENOTDIR. Unique per open: libhdf5 takes two open files
// with one name (and no descriptor) for the same file.
std::string ImageName() {
  static std::atomic<uint64_t> counter{0};
  return "/dev/null/onnxgate-golden-image-" + std::to_string(counter.fetch_add(1));
}

}  // namespace

StatusOr<H5Handle> OpenGoldenFile(const std::string& path) {
  H5Where root{path, "/"};
  StatusOr<std::string> bytes = ReadRegularFile(path, kMaxGoldenFileBytes, "golden file");
  if (!bytes.ok()) return bytes.status();
  if (!HasHdf5Signature(*bytes)) {
    return DataLoss(path + ": not an HDF5 file (no HDF5 signature found)");
  }
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle fapl, H5Take(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, StatusCode::kInternal, root,
                            "cannot create a file access property list"));
  // No backing store: nothing is ever written to, or read from, a file of the image's name.
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Pset_fapl_core(fapl.get(), 64 * 1024, 0),
                                   StatusCode::kInternal, root,
                                   "cannot select the in-memory file driver"));
  // Closing the file closes every object still open in it, so no image outlives its read.
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG),
                                   StatusCode::kInternal, root,
                                   "cannot set the file close degree"));
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Pset_file_image(fapl.get(), bytes->data(), bytes->size()),
                                   StatusCode::kInternal, root,
                                   "cannot hand the golden's bytes to HDF5"));
  // The property list holds its own copy now.
  std::string().swap(*bytes);
  return H5Take(H5Fopen(ImageName().c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose,
                StatusCode::kDataLoss, root, "cannot open the HDF5 file (truncated or corrupt?)");
}

}  // namespace onnxgate
