// Owning wrappers for HDF5 identifiers and the one place where HDF5's error stack becomes a Status.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

// Names what is being read or written in error messages: "<file>: <object path>: <what>".
struct H5Where {
  std::string file;
  std::string object;  // "/sets/0/inputs/A"; "/" for the root

  H5Where Child(const std::string& link_name) const {
    return {file, object == "/" ? "/" + link_name : object + "/" + link_name};
  }
  std::string Prefix() const { return file + ": " + object + ": "; }
};

// Serialises whole golden reads and writes: HDF5 is only safe from several threads when built
// thread-safe, and a golden is small enough that nothing is lost by taking turns.
std::mutex& Hdf5Mutex();

// Turns off HDF5's printing of its error stack to stderr for the calling thread. The stack is
// per thread in thread-safe builds, so every entry point calls this before its first HDF5 call.
void SilenceHdf5Errors();

// Builds a Status from the calling thread's HDF5 error stack (its innermost messages), then clears
// the stack. `what` says what was being done; the caller's Where prefixes it.
Status Hdf5Error(StatusCode code, const H5Where& where, const std::string& what);

// Owns one hid_t and closes it with the matching H5*close function.
class H5Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  H5Handle() = default;
  H5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~H5Handle() { Reset(); }
  H5Handle(H5Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  H5Handle& operator=(H5Handle&& other) noexcept {
    if (this != &other) {
      Reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = -1;
    }
    return *this;
  }
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void Reset() {
    if (id_ >= 0 && closer_ != nullptr) closer_(id_);
    id_ = -1;
  }
  // Closes now and reports a failure (closing a file flushes it, so that can fail).
  Status Close(const H5Where& where);

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Wraps `id` (the result of an H5*create/open call) or returns the HDF5 error for `what`.
StatusOr<H5Handle> H5Take(hid_t id, H5Handle::Closer closer, StatusCode code, const H5Where& where,
                          const std::string& what);
// OK when `rc` (an herr_t or htri_t) is non-negative, else the HDF5 error for `what`.
Status H5Check(int64_t rc, StatusCode code, const H5Where& where, const std::string& what);

// Opens the object (group or dataset) / the group `name` below `loc`; a missing one is
// InvalidArgument naming it. `where` names `loc`. `name` must be one hard link: a path, an
// external, soft or user-defined link is refused before libhdf5 follows it
// (golden/hdf5_containment.h), and the open itself refuses to traverse an external link.
StatusOr<H5Handle> OpenObject(hid_t loc, const std::string& name, const H5Where& where);
StatusOr<H5Handle> OpenGroup(hid_t loc, const std::string& name, const H5Where& where);
// Creates group `name` below `loc`; `where` names the new group.
StatusOr<H5Handle> CreateGroup(hid_t loc, const std::string& name, const H5Where& where);

// A creation property list of `list_class` (H5P_GROUP_CREATE, H5P_DATASET_CREATE, H5P_FILE_CREATE)
// that records no object times, so that the same content gives the same bytes (re-imports are
// byte-stable and diff cleanly).
StatusOr<H5Handle> UntimedCreationList(hid_t list_class, const H5Where& where);

// Link names of the direct children of group `group`, in HDF5's name order. A group declaring more
// than kMaxGoldenGroupLinks links, or a name longer than kMaxGoldenLinkNameBytes, is DataLoss.
StatusOr<std::vector<std::string>> ChildNames(hid_t group, const H5Where& where);

// Scalar attributes. Readers refuse a missing attribute (InvalidArgument naming it), a value
// of the wrong HDF5 class (DataLoss), an array attribute of more than
// kMaxGoldenArrayAttributeElements elements and a fixed-length string attribute declaring more than
// kMaxGoldenStringAttributeBytes (golden/golden_limits.h), before allocating for it.
bool HasAttribute(hid_t obj, const std::string& name);
Status WriteStringAttribute(hid_t obj, const std::string& name, const std::string& value,
                            const H5Where& where);
Status WriteInt64Attribute(hid_t obj, const std::string& name, int64_t value, const H5Where& where);
Status WriteDoubleAttribute(hid_t obj, const std::string& name, double value, const H5Where& where);
Status WriteInt64ArrayAttribute(hid_t obj, const std::string& name,
                                const std::vector<int64_t>& values, const H5Where& where);
StatusOr<std::string> ReadStringAttribute(hid_t obj, const std::string& name, const H5Where& where);
StatusOr<int64_t> ReadInt64Attribute(hid_t obj, const std::string& name, const H5Where& where);
StatusOr<double> ReadDoubleAttribute(hid_t obj, const std::string& name, const H5Where& where);
StatusOr<std::vector<int64_t>> ReadInt64ArrayAttribute(hid_t obj, const std::string& name,
                                                       const H5Where& where);

// A variable-length UTF-8 string type (for attributes and STRING tensors).
StatusOr<H5Handle> Utf8StringType(const H5Where& where);

// Reads `count` strings of a dataset or attribute whose type `file_type` is a string type
// (variable or fixed length): `read(mem_type, buffer)` performs the H5Dread / H5Aread. The buffer
// it needs (a pointer per element, or the declared length per element) must fit in `max_bytes`,
// checked before it is allocated (DataLoss otherwise).
Status ReadStrings(hid_t file_type, size_t count, uint64_t max_bytes, const H5Where& where,
                   const std::function<herr_t(hid_t, void*)>& read, std::vector<std::string>* out);

}  // namespace onnxgate
