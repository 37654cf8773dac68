// .npz and .npy reading (see npz_reader.h).
#include "harness/models/npz_reader.h"

#include <zip.h>

#include <cstring>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include "runtime/base/contained_file.h"

namespace onnxgate {

namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr size_t kNpyMagicBytes = 6;
// Deflate's largest expansion (about 1032:1), rounded up.
constexpr uint64_t kMaxDeflateRatio = 1100;

// NumPy's type string without its byte-order character, as ONNX names the type.
std::optional<DataType> DataTypeOfDescr(const std::string& kind_and_size) {
  static const std::map<std::string, DataType> kTypes = {
      {"f2", DataType::kFloat16},   {"f4", DataType::kFloat},      {"f8", DataType::kDouble},
      {"i1", DataType::kInt8},      {"i2", DataType::kInt16},      {"i4", DataType::kInt32},
      {"i8", DataType::kInt64},     {"u1", DataType::kUint8},      {"u2", DataType::kUint16},
      {"u4", DataType::kUint32},    {"u8", DataType::kUint64},     {"b1", DataType::kBool},
      {"c8", DataType::kComplex64}, {"c16", DataType::kComplex128}};
  auto it = kTypes.find(kind_and_size);
  if (it == kTypes.end()) return std::nullopt;
  return it->second;
}

// The value of `key` in the header's Python dict literal: the text after "'key':" up to the next
// top-level comma or closing brace.
std::optional<std::string> HeaderField(const std::string& header, const std::string& key) {
  const std::regex field("['\"]" + key + "['\"]\\s*:\\s*('[^']*'|\\([^)]*\\)|True|False)");
  std::smatch m;
  if (!std::regex_search(header, m, field)) return std::nullopt;
  return m[1].str();
}

StatusOr<std::vector<int64_t>> ParseShapeTuple(const std::string& tuple,
                                               const std::string& source) {
  std::vector<int64_t> dims;
  const std::string inner = tuple.substr(1, tuple.size() - 2);
  size_t pos = 0;
  while (pos < inner.size()) {
    size_t comma = inner.find(',', pos);
    if (comma == std::string::npos) comma = inner.size();
    std::string item = inner.substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    pos = comma + 1;
    if (item.empty()) continue;
    if (item.find_first_not_of("0123456789") != std::string::npos || item.size() > 15) {
      return InvalidArgument(source + ": .npy header shape " + tuple + " is not a tuple of sizes");
    }
    dims.push_back(std::stoll(item));
  }
  return dims;
}

uint32_t LittleEndian(const std::string& bytes, size_t at, int width) {
  uint32_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

}  // namespace

StatusOr<Tensor> ParseNpy(const std::string& bytes, const std::string& source) {
  if (bytes.size() < kNpyMagicBytes + 4 || bytes.compare(0, kNpyMagicBytes, kNpyMagic) != 0) {
    return InvalidArgument(source + ": not a NumPy .npy array (no \\x93NUMPY magic)");
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  if (major < 1 || major > 3) {
    return InvalidArgument(source + ": .npy format version " + std::to_string(major) +
                           " is not one of 1, 2, 3");
  }
  const int len_width = major == 1 ? 2 : 4;
  const size_t header_at = 8 + len_width;
  if (bytes.size() < header_at) return InvalidArgument(source + ": .npy header is cut short");
  const uint64_t header_len = LittleEndian(bytes, 8, len_width);
  if (bytes.size() < header_at + header_len) {
    return InvalidArgument(source + ": .npy header is cut short");
  }
  const std::string header = bytes.substr(header_at, header_len);
  if (std::regex_search(header, std::regex("['\"]descr['\"]\\s*:\\s*\\["))) {
    return InvalidArgument(source +
                           ": a structured (record) array, not an array of numbers; save each "
                           "field as an array of its own");
  }
  const auto descr = HeaderField(header, "descr");
  const auto fortran = HeaderField(header, "fortran_order");
  const auto shape_text = HeaderField(header, "shape");
  if (!descr || !fortran || !shape_text || shape_text->front() != '(') {
    return InvalidArgument(source + ": .npy header lacks descr, fortran_order or shape: " + header);
  }
  if (*fortran == "True") {
    return InvalidArgument(source +
                           ": Fortran-order arrays are not read; save the array in C "
                           "order (numpy.ascontiguousarray)");
  }
  const std::string type = descr->substr(1, descr->size() - 2);  // without quotes
  if (type.size() < 2 || (type[0] != '<' && type[0] != '|' && type[0] != '=')) {
    return InvalidArgument(source + ": element type '" + type +
                           "' is not little-endian; save the array with a '<' type");
  }
  if (type.substr(1) == "O") {
    return InvalidArgument(source +
                           ": holds pickled Python objects (NumPy dtype object), which are never "
                           "unpickled; save an array of numbers");
  }
  const std::optional<DataType> dtype = DataTypeOfDescr(type.substr(1));
  if (!dtype) {
    return InvalidArgument(source + ": NumPy element type '" + type +
                           "' has no ONNX element type onnxgate reads");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseShapeTuple(*shape_text, source));
  const Shape shape(dims);
  // Checked before any size is computed from it: the product of the dims may overflow.
  if (Status valid = shape.Validate(static_cast<int64_t>(kMaxNpzArrayBytes)); !valid.ok()) {
    return InvalidArgument(source + ": .npy shape " + *shape_text + ": " + valid.message());
  }
  const uint64_t data_bytes = DataTypeStorageBytes(*dtype, shape.NumElements());
  if (bytes.size() - header_at - header_len != data_bytes) {
    return InvalidArgument(source + ": shape " + *shape_text + " of " + type + " needs " +
                           std::to_string(data_bytes) + " bytes of data, the file holds " +
                           std::to_string(bytes.size() - header_at - header_len));
  }
  Tensor tensor(*dtype, shape);
  if (data_bytes > 0) {
    std::memcpy(tensor.mutable_raw_data(), bytes.data() + header_at + header_len, data_bytes);
  }
  return tensor;
}

namespace {

// A member of the archive to be inflated, as the central directory describes it.
struct PlannedMember {
  zip_int64_t index = 0;
  std::string name;    // without ".npy"
  std::string source;  // "<path> array '<member>'", for messages
  uint64_t size = 0;   // uncompressed, as the archive declares it
};

// Every member's name and declared size, from the central directory alone: the members to
// inflate, each size and their sum checked. Nothing is inflated here.
StatusOr<std::vector<PlannedMember>> PlanMembers(zip_t* zip, const std::string& path,
                                                 uint64_t archive_bytes, const NpzRequest& request,
                                                 std::vector<std::string>* unread) {
  std::vector<PlannedMember> planned;
  std::set<std::string> names;
  uint64_t total = 0;
  const zip_int64_t count = zip_get_num_entries(zip, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip, i, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_NAME) ||
        !(stat.valid & ZIP_STAT_SIZE)) {
      return InvalidArgument(path + ": member " + std::to_string(i) +
                             " cannot be read: " + zip_strerror(zip));
    }
    const std::string member = stat.name;
    const std::string source = path + " array '" + member + "'";
    if (member.size() < 5 || member.compare(member.size() - 4, 4, ".npy") != 0) {
      return InvalidArgument(source + ": an .npz holds only .npy members");
    }
    const std::string name = member.substr(0, member.size() - 4);
    if (!names.insert(name).second) {
      return InvalidArgument(path + ": array '" + name + "' appears twice");
    }
    if (request.wanted && !request.wanted->count(name)) {
      unread->push_back(name);
      continue;
    }
    if (stat.size > kMaxNpzArrayBytes) {
      return InvalidArgument(source + ": " + std::to_string(stat.size) +
                             " bytes uncompressed, more than the " +
                             std::to_string(kMaxNpzArrayBytes) + " an array may hold");
    }
    // The size is the archive's word, checked before it is allocated: deflate never expands
    // data more than kMaxDeflateRatio times, so a larger claim cannot be true.
    if (stat.size > kMaxDeflateRatio * archive_bytes) {
      return InvalidArgument(source + ": claims " + std::to_string(stat.size) +
                             " bytes uncompressed from an archive of " +
                             std::to_string(archive_bytes) + " bytes");
    }
    total += stat.size;  // no overflow: each term is at most kMaxNpzArrayBytes
    if (total > request.budget_bytes) {
      return InvalidArgument(source + ": the arrays read up to this one declare " +
                             std::to_string(total) + " bytes uncompressed, more than the " +
                             std::to_string(request.budget_bytes) +
                             "-byte budget of one .npz; nothing was inflated");
    }
    planned.push_back({i, name, source, stat.size});
  }
  return planned;
}

// Inflates one planned member (at most its declared size) and parses it as .npy.
StatusOr<Tensor> InflateMember(zip_t* zip, const PlannedMember& member) {
  std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen_index(zip, member.index, 0));
  if (!file) {
    return InvalidArgument(member.source + ": cannot be opened: " + zip_strerror(zip));
  }
  std::string bytes(member.size, '\0');
  const zip_int64_t got = zip_fread(file.get(), bytes.data(), member.size);
  if (got < 0 || static_cast<zip_uint64_t>(got) != member.size) {
    return InvalidArgument(member.source + ": cannot be read: " + zip_file_strerror(file.get()));
  }
  return ParseNpy(bytes, member.source);
}

}  // namespace

StatusOr<NpzArrays> ReadNpzFile(const std::string& path, const NpzRequest& request) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string archive,
                            ReadRegularFile(path, kMaxProtobufFileBytes, ".npz file"));
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(archive.data(), archive.size(), 0, &error);
  if (source == nullptr) {
    const std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    return InvalidArgument(path + ": " + why);
  }
  std::unique_ptr<zip_t, ZipCloser> zip(zip_open_from_source(source, ZIP_RDONLY, &error));
  if (!zip) {
    zip_source_free(source);
    const std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    return InvalidArgument(path + ": not a NumPy .npz archive (" + why + ")");
  }
  zip_error_fini(&error);
  NpzArrays out;
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<PlannedMember> planned,
                            PlanMembers(zip.get(), path, archive.size(), request, &out.unread));
  for (const PlannedMember& member : planned) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor tensor, InflateMember(zip.get(), member));
    out.arrays.emplace(member.name, std::move(tensor));
  }
  return out;
}

}  // namespace onnxgate
