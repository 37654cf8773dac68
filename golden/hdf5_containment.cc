// Refusing external links, soft links, external raw storage and virtual datasets in goldens.
#include "golden/hdf5_containment.h"

#include <vector>

namespace onnxgate {

namespace {

constexpr char kOwnData[] = "; a golden must hold its own data";

// Longest link value or file name quoted in a message; a longer one is cut.
constexpr size_t kMaxQuotedBytes = 4096;

// Refuses every external link libhdf5 is about to follow, whatever asked it to.
herr_t RefuseExternalLink(const char* /*parent_file*/, const char* /*parent_group*/,
                          const char* /*child_file*/, const char* /*child_object*/,
                          unsigned* /*acc_flags*/, hid_t /*fapl*/, void* /*op_data*/) {
  return -1;
}

// The value of a soft or external link (at most kMaxQuotedBytes of it), or "" when it cannot be
// read.
std::string LinkValue(hid_t loc, const std::string& name, size_t size) {
  if (size == 0 || size > kMaxQuotedBytes) return "";
  std::vector<char> buffer(size, '\0');
  if (H5Lget_val(loc, name.c_str(), buffer.data(), buffer.size(), H5P_DEFAULT) < 0) {
    H5Eclear2(H5E_DEFAULT);
    return "";
  }
  return std::string(buffer.data(), buffer.size());
}

std::string DescribeExternalLink(hid_t loc, const std::string& name, size_t size) {
  std::string value = LinkValue(loc, name, size);
  unsigned flags = 0;
  const char* file = nullptr;
  const char* object = nullptr;
  if (value.empty() ||
      H5Lunpack_elink_val(value.data(), value.size(), &flags, &file, &object) < 0 ||
      file == nullptr) {
    H5Eclear2(H5E_DEFAULT);
    return "is an HDF5 external link to another file";
  }
  return "is an HDF5 external link to '" + std::string(file) + "'" +
         (object != nullptr ? " (object '" + std::string(object) + "')" : "");
}

std::string DescribeSoftLink(hid_t loc, const std::string& name, size_t size) {
  std::string value = LinkValue(loc, name, size);
  std::string target(value.c_str());  // the value ends with its NUL
  return "is an HDF5 soft link" + (target.empty() ? std::string() : " to '" + target + "'") +
         ", not an object of its own";
}

// A string property read through a "(buffer, size) -> length" getter, cut at kMaxQuotedBytes.
template <typename Getter>
std::string ReadName(Getter get) {
  std::vector<char> buffer(kMaxQuotedBytes + 1, '\0');
  ssize_t n = get(buffer.data(), buffer.size());
  if (n < 0) {
    H5Eclear2(H5E_DEFAULT);
    return "?";
  }
  return std::string(buffer.data());
}

}  // namespace

void HardenHdf5Library() {
  // Before anything initializes libhdf5: no cleanup of its own at exit. After a close that
  // failed (a full disk), libhdf5 1.10.8 keeps a half-closed file and its exit handler crashes
  // on it (SIGSEGV in H5F__close_cb); onnxgate closes every file it opens itself. Once the
  // library is initialized the call has no effect, which is harmless.
  H5dont_atexit();
  SilenceHdf5Errors();
  // A dataset naming a filter libhdf5 does not have built in would make it search
  // HDF5_PLUGIN_PATH (or /usr/local/hdf5/lib/plugin) and load a shared library from there.
  H5PLset_loading_state(0);
}

StatusOr<H5Handle> NoForeignLinkAccess(const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle lapl, H5Take(H5Pcreate(H5P_LINK_ACCESS), H5Pclose, StatusCode::kInternal, where,
                            "cannot create a link access property list"));
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Pset_elink_cb(lapl.get(), RefuseExternalLink, nullptr),
                                   StatusCode::kInternal, where, "cannot refuse external links"));
  // libhdf5 refuses 0; one step is the least it allows.
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Pset_nlinks(lapl.get(), 1), StatusCode::kInternal, where,
                                   "cannot limit soft-link traversal"));
  return lapl;
}

Status CheckChildName(const std::string& name, const H5Where& where) {
  if (name.empty() || name == "." || name.find('/') != std::string::npos) {
    return DataLoss(where.Prefix() + "link name '" + name + "' is not the name of one child");
  }
  return OkStatus();
}

Status CheckHardLink(hid_t loc, const std::string& name, const H5Where& where) {
  ONNXGATE_RETURN_IF_ERROR(CheckChildName(name, where));
  const H5Where at = where.Child(name);
  H5L_info_t info;
  if (H5Lget_info(loc, name.c_str(), &info, H5P_DEFAULT) < 0) {
    return Hdf5Error(StatusCode::kDataLoss, at, "cannot read the link");
  }
  switch (info.type) {
    case H5L_TYPE_HARD: return OkStatus();
    case H5L_TYPE_EXTERNAL:
      return DataLoss(at.Prefix() + DescribeExternalLink(loc, name, info.u.val_size) + kOwnData);
    case H5L_TYPE_SOFT:
      return DataLoss(at.Prefix() + DescribeSoftLink(loc, name, info.u.val_size) + kOwnData);
    default:
      return DataLoss(at.Prefix() + "is a user-defined HDF5 link (type " +
                      std::to_string(static_cast<int>(info.type)) + ")" + kOwnData);
  }
}

Status CheckSelfContainedDataset(hid_t dataset, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle dcpl, H5Take(H5Dget_create_plist(dataset), H5Pclose, StatusCode::kDataLoss, where,
                            "cannot read the dataset's creation properties"));
  const hid_t p = dcpl.get();
  H5D_layout_t layout = H5Pget_layout(p);
  if (layout == H5D_VIRTUAL) {
    size_t count = 0;
    if (H5Pget_virtual_count(p, &count) < 0) H5Eclear2(H5E_DEFAULT);
    std::string file =
        ReadName([&](char* b, size_t n) { return H5Pget_virtual_filename(p, 0, b, n); });
    std::string dset =
        ReadName([&](char* b, size_t n) { return H5Pget_virtual_dsetname(p, 0, b, n); });
    std::string more = count > 1 ? " and " + std::to_string(count - 1) + " more source(s)" : "";
    return DataLoss(where.Prefix() + "is an HDF5 virtual dataset mapping '" +
                    (count == 0 ? std::string("?") : file) + "' (dataset '" + dset + "')" + more +
                    kOwnData);
  }
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS && layout != H5D_CHUNKED) {
    return Hdf5Error(StatusCode::kDataLoss, where,
                     "unknown dataset layout " + std::to_string(static_cast<int>(layout)));
  }
  int external = H5Pget_external_count(p);
  if (external < 0)
    return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the external file list");
  if (external > 0) {
    std::vector<char> name(kMaxQuotedBytes + 1, '\0');
    off_t offset = 0;
    hsize_t size = 0;
    if (H5Pget_external(p, 0, name.size() - 1, name.data(), &offset, &size) < 0) {
      H5Eclear2(H5E_DEFAULT);
      name[0] = '?';
    }
    std::string more = external > 1 ? " and " + std::to_string(external - 1) + " more file(s)" : "";
    return DataLoss(where.Prefix() + "has HDF5 external raw storage in '" +
                    std::string(name.data()) + "'" + more + kOwnData);
  }
  return OkStatus();
}

}  // namespace onnxgate
