// What keeps a golden reading only itself.
//
// HDF5 lets one file make the library read others: an external link (a link to an object in
// another file), external raw storage (a dataset whose bytes live in other files, by any path:
// /dev/zero, /etc/shadow, a FIFO), and a virtual dataset (a dataset mapped from datasets in other
// files). A golden must hold its own data, so each is refused with a message naming the golden,
// the object and what it points at, and nothing of the other file is read. Soft links (aliases
// within the file, possibly dangling or cyclic) and user-defined links are refused too: the
// format has no use for them.
//
// Two layers:
// - Checks before use. Every child of a group is opened through OpenObject (golden/hdf5_handle.h),
//   which looks at the link itself first (H5Lget_info does not follow it) and refuses anything but
//   a hard link. Every dataset is read through CheckSelfContainedDataset, which looks at its
//   creation property list (layout, external file count) before its dataspace or data: for a
//   virtual dataset even H5Dget_space may open the source files.
// - Access properties, in case a check is missed. The link access list every open and lookup uses
//   (NoForeignLinkAccess) carries an external-link callback that refuses every traversal and
//   allows one soft-link step at most. libhdf5 1.10 has no property that stops external raw
//   storage or a virtual dataset's sources for an absolute path (H5Pset_efile_prefix and
//   H5Pset_virtual_prefix apply to relative names only), so for those the creation-list check is
//   the barrier; ReadTensorDataset (golden/golden_value_io.cc), the one place that reads data,
//   calls it before anything else.
//
// HardenHdf5Library turns off what libhdf5 does on its own: printing its error stack to stderr,
// and loading the filter plugin a dataset names (a shared library from HDF5_PLUGIN_PATH).
#pragma once

#include <hdf5.h>

#include <string>

#include "golden/hdf5_handle.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Turns off libhdf5's automatic error printing for the calling thread and its loading of filter
// plugins for the process. Idempotent; every entry point of the golden library calls it.
void HardenHdf5Library();

// A link access property list whose external-link callback refuses every traversal, allowing one
// soft-link step at most. `where` names what is being opened, for errors.
StatusOr<H5Handle> NoForeignLinkAccess(const H5Where& where);

// OK when `name` is the name of one child: not empty, not ".", no '/' (a path would make libhdf5
// walk the links on the way). DataLoss naming `where` otherwise.
Status CheckChildName(const std::string& name, const H5Where& where);

// OK when `name` below `loc` is a hard link with a plain name (CheckChildName). Otherwise
// DataLoss naming `where.Child(name)` and what the link is: "is an HDF5 external link to
// 'other.h5' (object '/secret'); a golden must hold its own data", a soft link and its target,
// or a user-defined link. InvalidArgument when there is no such link.
Status CheckHardLink(hid_t loc, const std::string& name, const H5Where& where);

// OK when the open dataset `dataset` keeps its bytes in this file: not a virtual dataset and no
// external raw storage. DataLoss naming `where` and the other file otherwise ("has HDF5 external
// raw storage in '/dev/zero'; a golden must hold its own data"). Reads nothing but the dataset's
// creation property list.
Status CheckSelfContainedDataset(hid_t dataset, const H5Where& where);

}  // namespace onnxgate
