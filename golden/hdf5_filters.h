// Which HDF5 filters a golden's datasets may use, and the check that no compressed chunk inflates
// past its size.
//
// Hazards closed:
// - A deflate bomb inside the declared size. libhdf5 1.10.8's deflate filter inflates a chunk into
//   a buffer it doubles until the stream ends, whatever the chunk's size: a 260 KB chunk of a
//   1 KB dataset makes it allocate 256 MiB (and a chunk of a few MB, gigabytes). libhdf5 lets no
//   application replace its built-in deflate filter, so before a deflated dataset is read every
//   stored chunk is inflated here first, through a fixed 64 KiB buffer, counting: a chunk that
//   inflates past the chunk size is refused, naming it, and nothing of that size is allocated.
// - Filters that size their output from the stored data (szip reads the decoded size from the
//   chunk's own header) or that libhdf5 would load as a plugin (a shared library from
//   HDF5_PLUGIN_PATH; loading is also turned off, golden/hdf5_containment.h): a golden may use
//   deflate (gzip), shuffle and fletcher32 only, the filters h5py offers without plugins, in an
//   order where only fletcher32 follows deflate. Anything else is refused, naming the filter.
#pragma once

#include <hdf5.h>

#include <cstdint>

#include "golden/hdf5_handle.h"
#include "runtime/base/status.h"

namespace onnxgate {

// OK when the open dataset `dataset` uses no filter, or only deflate, shuffle and fletcher32 with
// nothing but fletcher32 after deflate, and each of its deflated chunks inflates to at most
// `chunk_bytes` (the chunk's size in the file type; libhdf5 inflates into a buffer of that size).
// DataLoss naming `where`, the filter or the chunk otherwise. Reads each stored chunk once (a
// deflated dataset only); allocates at most one stored chunk.
Status CheckDatasetFilters(hid_t dataset, int64_t chunk_bytes, const H5Where& where);

}  // namespace onnxgate
