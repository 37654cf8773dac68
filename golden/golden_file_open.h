// Opens a golden file for libhdf5 without letting libhdf5 open anything by name.
//
// A golden path comes from a suite.json, so it is untrusted input. The hazards this closes, and
// how:
// - A FIFO, device (/dev/zero), socket or folder named as the golden: the file is opened
//   O_RDONLY | O_NONBLOCK | O_NOCTTY and only a regular file is accepted (OpenRegularFile of
//   runtime/base/contained_file.h), so nothing blocks and nothing endless is read.
// - A huge golden: its size (fstat on the open descriptor) is checked against kMaxGoldenFileBytes
//   before a byte is read.
// - A file swapped (for a FIFO, a link, another golden) between that check and libhdf5's open:
//   libhdf5 never opens the path. The bytes read from the checked descriptor are handed to
//   libhdf5's core driver as a file image, so what was checked is what is parsed.
// - The core driver, given an image, still calls open(name) to make sure that no such file exists.
//   The name it is given is therefore one that cannot exist (below /dev/null, which is not a
//   folder), unique per open so that two images are never taken for one file.
// - Relative external links and external files resolved against the golden's folder: the image
//   has no folder. They are refused before that anyway (golden/hdf5_containment.h).
#pragma once

#include <string>

#include "golden/hdf5_handle.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The golden at `path`, open read-only from a copy in memory. NotFound when there is no such file;
// InvalidArgument for a folder, FIFO, device or socket, or a file over kMaxGoldenFileBytes;
// DataLoss when it is not HDF5 or libhdf5 cannot open it (truncated, corrupt). Messages name
// `path`.
StatusOr<H5Handle> OpenGoldenFile(const std::string& path);

}  // namespace onnxgate
