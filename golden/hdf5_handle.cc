// HDF5 handles, error-stack conversion, groups and scalar attributes.
#include "golden/hdf5_handle.h"

#include <cstring>

#include "golden/golden_limits.h"
#include "golden/hdf5_containment.h"

namespace onnxgate {

namespace {

herr_t CollectErrorMessage(unsigned /*n*/, const H5E_error2_t* err, void* data) {
  auto* messages = static_cast<std::vector<std::string>*>(data);
  if (err != nullptr && err->desc != nullptr && err->desc[0] != '\0')
    messages->push_back(err->desc);
  return 0;
}

StatusOr<H5Handle> OpenScalarLikeAttribute(hid_t obj, const std::string& name, const H5Where& where,
                                           H5Handle* type) {
  htri_t exists = H5Aexists(obj, name.c_str());
  if (exists < 0)
    return Hdf5Error(StatusCode::kDataLoss, where, "cannot look up attribute " + name);
  if (exists == 0)
    return InvalidArgument(where.Prefix() + "missing required attribute '" + name + "'");
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle attr,
                            H5Take(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose,
                                   StatusCode::kDataLoss, where, "cannot open attribute " + name));
  ONNXGATE_ASSIGN_OR_RETURN(*type, H5Take(H5Aget_type(attr.get()), H5Tclose, StatusCode::kDataLoss,
                                          where, "cannot read the type of attribute " + name));
  return attr;
}

StatusOr<hssize_t> AttributeElementCount(hid_t attr, const std::string& name,
                                         const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle space,
                            H5Take(H5Aget_space(attr), H5Sclose, StatusCode::kDataLoss, where,
                                   "cannot read the dataspace of attribute " + name));
  hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) return Hdf5Error(StatusCode::kDataLoss, where, "bad dataspace of attribute " + name);
  return n;
}

Status WriteScalarAttribute(hid_t obj, const std::string& name, hid_t type, const void* value,
                            const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle space,
                            H5Take(H5Screate(H5S_SCALAR), H5Sclose, StatusCode::kInternal, where,
                                   "cannot create a scalar dataspace"));
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle attr,
      H5Take(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
             StatusCode::kUnavailable, where, "cannot create attribute " + name));
  return H5Check(H5Awrite(attr.get(), type, value), StatusCode::kUnavailable, where,
                 "cannot write attribute " + name);
}

}  // namespace

StatusOr<H5Handle> UntimedCreationList(hid_t list_class, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle plist,
                            H5Take(H5Pcreate(list_class), H5Pclose, StatusCode::kInternal, where,
                                   "cannot create a property list"));
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Pset_obj_track_times(plist.get(), 0), StatusCode::kInternal,
                                   where, "cannot turn off time tracking"));
  return plist;
}

std::mutex& Hdf5Mutex() {
  static std::mutex* mutex = new std::mutex();  // never destroyed: usable during static teardown
  return *mutex;
}

void SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

void InitializeGoldenIo() {
  HardenHdf5Library();  // first: it must run before libhdf5 initializes (H5dont_atexit)
  H5open();
}

Status Hdf5Error(StatusCode code, const H5Where& where, const std::string& what) {
  std::vector<std::string> messages;  // outermost (the API call) first
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, CollectErrorMessage, &messages);
  H5Eclear2(H5E_DEFAULT);
  std::string detail;
  if (messages.empty()) {
    detail = "HDF5 gave no detail";
  } else {
    detail = messages.back();
    if (messages.size() > 1) detail += " (" + messages.front() + ")";
  }
  return Status(code, where.Prefix() + what + ": " + detail);
}

Status H5Handle::Close(const H5Where& where) {
  if (id_ < 0 || closer_ == nullptr) return OkStatus();
  herr_t rc = closer_(id_);
  id_ = -1;
  return H5Check(rc, StatusCode::kUnavailable, where, "closing failed");
}

StatusOr<H5Handle> H5Take(hid_t id, H5Handle::Closer closer, StatusCode code, const H5Where& where,
                          const std::string& what) {
  if (id < 0) return Hdf5Error(code, where, what);
  return H5Handle(id, closer);
}

Status H5Check(int64_t rc, StatusCode code, const H5Where& where, const std::string& what) {
  if (rc < 0) return Hdf5Error(code, where, what);
  return OkStatus();
}

StatusOr<H5Handle> OpenObject(hid_t loc, const std::string& name, const H5Where& where) {
  ONNXGATE_RETURN_IF_ERROR(CheckChildName(name, where));
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle lapl, NoForeignLinkAccess(where));
  htri_t exists = H5Lexists(loc, name.c_str(), lapl.get());
  if (exists < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot look up '" + name + "'");
  if (exists == 0)
    return InvalidArgument(where.Prefix() + "missing required object '" + name + "'");
  // The link itself first: an external or soft link is refused before libhdf5 follows it.
  ONNXGATE_RETURN_IF_ERROR(CheckHardLink(loc, name, where));
  return H5Take(H5Oopen(loc, name.c_str(), lapl.get()), H5Oclose, StatusCode::kDataLoss,
                where.Child(name), "cannot open object");
}

StatusOr<H5Handle> OpenGroup(hid_t loc, const std::string& name, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle obj, OpenObject(loc, name, where));
  if (H5Iget_type(obj.get()) != H5I_GROUP) {
    return InvalidArgument(where.Child(name).Prefix() + "expected a group, found another object");
  }
  return obj;
}

StatusOr<H5Handle> CreateGroup(hid_t loc, const std::string& name, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle gcpl, UntimedCreationList(H5P_GROUP_CREATE, where));
  return H5Take(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose,
                StatusCode::kUnavailable, where, "cannot create group");
}

StatusOr<std::vector<std::string>> ChildNames(hid_t group, const H5Where& where) {
  H5G_info_t info;
  ONNXGATE_RETURN_IF_ERROR(
      H5Check(H5Gget_info(group, &info), StatusCode::kDataLoss, where, "cannot list the children"));
  if (info.nlinks > kMaxGoldenGroupLinks) {
    return DataLoss(where.Prefix() + "the group declares " + std::to_string(info.nlinks) +
                    " links, more than the limit of " + std::to_string(kMaxGoldenGroupLinks));
  }
  std::vector<std::string> names;
  names.reserve(info.nlinks);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t size =
        H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (size < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot read a child's name");
    if (static_cast<uint64_t>(size) > kMaxGoldenLinkNameBytes) {
      return DataLoss(where.Prefix() + "a child's name is " + std::to_string(size) +
                      " bytes long, more than the limit of " +
                      std::to_string(kMaxGoldenLinkNameBytes));
    }
    std::string name(static_cast<size_t>(size) + 1, '\0');
    if (H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(),
                           H5P_DEFAULT) < 0) {
      return Hdf5Error(StatusCode::kDataLoss, where, "cannot read a child's name");
    }
    name.resize(static_cast<size_t>(size));
    names.push_back(std::move(name));
  }
  return names;
}

bool HasAttribute(hid_t obj, const std::string& name) {
  htri_t exists = H5Aexists(obj, name.c_str());
  if (exists < 0) H5Eclear2(H5E_DEFAULT);
  return exists > 0;
}

StatusOr<H5Handle> Utf8StringType(const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle type,
                            H5Take(H5Tcopy(H5T_C_S1), H5Tclose, StatusCode::kInternal, where,
                                   "cannot create a string type"));
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_size(type.get(), H5T_VARIABLE), StatusCode::kInternal,
                                   where, "cannot make a variable-length string type"));
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_cset(type.get(), H5T_CSET_UTF8), StatusCode::kInternal,
                                   where, "cannot make a UTF-8 string type"));
  return type;
}

Status WriteStringAttribute(hid_t obj, const std::string& name, const std::string& value,
                            const H5Where& where) {
  if (value.find('\0') != std::string::npos) {
    return InvalidArgument(where.Prefix() + "attribute " + name + " holds a NUL byte");
  }
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle type, Utf8StringType(where));
  const char* text = value.c_str();
  return WriteScalarAttribute(obj, name, type.get(), &text, where);
}

Status WriteInt64Attribute(hid_t obj, const std::string& name, int64_t value,
                           const H5Where& where) {
  return WriteScalarAttribute(obj, name, H5T_STD_I64LE, &value, where);
}

Status WriteDoubleAttribute(hid_t obj, const std::string& name, double value,
                            const H5Where& where) {
  return WriteScalarAttribute(obj, name, H5T_IEEE_F64LE, &value, where);
}

Status WriteInt64ArrayAttribute(hid_t obj, const std::string& name,
                                const std::vector<int64_t>& values, const H5Where& where) {
  hsize_t n = values.size();
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle space, H5Take(H5Screate_simple(1, &n, nullptr), H5Sclose, StatusCode::kInternal,
                             where, "cannot create a dataspace"));
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle attr,
      H5Take(H5Acreate2(obj, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
             H5Aclose, StatusCode::kUnavailable, where, "cannot create attribute " + name));
  if (values.empty()) return OkStatus();
  return H5Check(H5Awrite(attr.get(), H5T_NATIVE_INT64, values.data()), StatusCode::kUnavailable,
                 where, "cannot write attribute " + name);
}

StatusOr<std::string> ReadStringAttribute(hid_t obj, const std::string& name,
                                          const H5Where& where) {
  H5Handle type;
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle attr, OpenScalarLikeAttribute(obj, name, where, &type));
  if (H5Tget_class(type.get()) != H5T_STRING) {
    return DataLoss(where.Prefix() + "attribute " + name + " must be a string");
  }
  ONNXGATE_ASSIGN_OR_RETURN(hssize_t n, AttributeElementCount(attr.get(), name, where));
  if (n != 1) {
    return DataLoss(where.Prefix() + "attribute " + name + " must be a scalar string, found " +
                    std::to_string(n) + " elements");
  }
  std::vector<std::string> values;
  ONNXGATE_RETURN_IF_ERROR(ReadStrings(
      type.get(), 1, kMaxGoldenStringAttributeBytes, where,
      [&](hid_t mem, void* buf) { return H5Aread(attr.get(), mem, buf); }, &values));
  return values[0];
}

StatusOr<int64_t> ReadInt64Attribute(hid_t obj, const std::string& name, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> values, ReadInt64ArrayAttribute(obj, name, where));
  if (values.size() != 1) {
    return DataLoss(where.Prefix() + "attribute " + name + " must be a scalar integer, found " +
                    std::to_string(values.size()) + " elements");
  }
  return values[0];
}

StatusOr<double> ReadDoubleAttribute(hid_t obj, const std::string& name, const H5Where& where) {
  H5Handle type;
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle attr, OpenScalarLikeAttribute(obj, name, where, &type));
  H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
    return DataLoss(where.Prefix() + "attribute " + name + " must be a number");
  }
  ONNXGATE_ASSIGN_OR_RETURN(hssize_t n, AttributeElementCount(attr.get(), name, where));
  if (n != 1) return DataLoss(where.Prefix() + "attribute " + name + " must be a scalar number");
  double value = 0;
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value),
                                   StatusCode::kDataLoss, where, "cannot read attribute " + name));
  return value;
}

StatusOr<std::vector<int64_t>> ReadInt64ArrayAttribute(hid_t obj, const std::string& name,
                                                       const H5Where& where) {
  H5Handle type;
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle attr, OpenScalarLikeAttribute(obj, name, where, &type));
  if (H5Tget_class(type.get()) != H5T_INTEGER) {
    return DataLoss(where.Prefix() + "attribute " + name + " must be an integer");
  }
  ONNXGATE_ASSIGN_OR_RETURN(hssize_t n, AttributeElementCount(attr.get(), name, where));
  if (n > kMaxGoldenArrayAttributeElements) {
    return DataLoss(where.Prefix() + "attribute " + name + " has " + std::to_string(n) +
                    " elements, more than the limit of " +
                    std::to_string(kMaxGoldenArrayAttributeElements));
  }
  std::vector<int64_t> values(static_cast<size_t>(n));
  if (n == 0) return values;
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Aread(attr.get(), H5T_NATIVE_INT64, values.data()),
                                   StatusCode::kDataLoss, where, "cannot read attribute " + name));
  return values;
}

Status ReadStrings(hid_t file_type, size_t count, uint64_t max_bytes, const H5Where& where,
                   const std::function<herr_t(hid_t, void*)>& read, std::vector<std::string>* out) {
  out->clear();
  if (count > max_bytes / sizeof(char*)) {
    return DataLoss(where.Prefix() + std::to_string(count) +
                    " strings are more than the limit of " + std::to_string(max_bytes) + " bytes");
  }
  out->reserve(count);
  htri_t variable = H5Tis_variable_str(file_type);
  if (variable < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot inspect a string type");
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle mem, H5Take(H5Tcopy(H5T_C_S1), H5Tclose, StatusCode::kInternal,
                                                 where, "cannot create a string type"));
  // HDF5 does not translate between character sets, so memory uses the file's.
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_cset(mem.get(), H5Tget_cset(file_type)),
                                   StatusCode::kDataLoss, where,
                                   "cannot read the character set of a string type"));
  if (variable > 0) {
    ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_size(mem.get(), H5T_VARIABLE), StatusCode::kInternal,
                                     where, "cannot make a variable-length string type"));
    std::vector<char*> buffer(count, nullptr);
    if (count > 0) {
      ONNXGATE_RETURN_IF_ERROR(H5Check(read(mem.get(), buffer.data()), StatusCode::kDataLoss, where,
                                       "cannot read strings"));
    }
    for (char* s : buffer) {
      out->push_back(s == nullptr ? std::string() : std::string(s));
      if (s != nullptr) H5free_memory(s);
    }
    return OkStatus();
  }
  size_t size = H5Tget_size(file_type);
  if (size == 0) return Hdf5Error(StatusCode::kDataLoss, where, "bad fixed-length string type");
  // The declared length is allocated for every element before a byte is read.
  if (count > 0 && size > max_bytes / count) {
    return DataLoss(where.Prefix() + std::to_string(count) + " fixed-length strings of " +
                    std::to_string(size) + " bytes are more than the limit of " +
                    std::to_string(max_bytes) + " bytes");
  }
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_size(mem.get(), size), StatusCode::kInternal, where,
                                   "cannot make a fixed-length string type"));
  ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_strpad(mem.get(), H5T_STR_NULLPAD), StatusCode::kInternal,
                                   where, "cannot set string padding"));
  std::vector<char> buffer(count * size, '\0');
  if (count > 0) {
    ONNXGATE_RETURN_IF_ERROR(H5Check(read(mem.get(), buffer.data()), StatusCode::kDataLoss, where,
                                     "cannot read strings"));
  }
  for (size_t i = 0; i < count; ++i) {
    const char* s = buffer.data() + i * size;
    out->push_back(std::string(s, strnlen(s, size)));
  }
  return OkStatus();
}

}  // namespace onnxgate
