// The allowed filter pipelines and the bounded pre-inflation of deflated chunks.
#include "golden/hdf5_filters.h"

#include <zlib.h>

#include <string>
#include <vector>

namespace onnxgate {

namespace {

constexpr size_t kScratchBytes = 64 * 1024;
// The most chunk positions of a deflated dataset that are checked one by one.
constexpr uint64_t kMaxDeflatedChunks = uint64_t{1} << 20;
// Fletcher32 appends a 4-byte checksum to a chunk.
constexpr size_t kFletcher32Bytes = 4;

const char* FilterName(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_DEFLATE: return "deflate";
    case H5Z_FILTER_SHUFFLE: return "shuffle";
    case H5Z_FILTER_FLETCHER32: return "fletcher32";
    case H5Z_FILTER_SZIP: return "szip";
    case H5Z_FILTER_NBIT: return "nbit";
    case H5Z_FILTER_SCALEOFFSET: return "scaleoffset";
    default: return "a filter libhdf5 would load as a plugin";
  }
}

struct Pipeline {
  int deflate_at = -1;              // position of deflate in the write order, -1 when absent
  std::vector<int> fletcher_after;  // positions of fletcher32 after deflate
};

// How many bytes `stored` inflates to, counting up to `limit` + 1 at most (then it stops).
// -1 when it is not a deflate stream.
int64_t InflatedSize(const std::string& stored, int64_t limit) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return -1;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stored.data()));
  z.avail_in = static_cast<uInt>(stored.size());
  std::vector<unsigned char> scratch(kScratchBytes);
  int64_t total = 0;
  int status = Z_OK;
  while (status == Z_OK && total <= limit) {
    z.next_out = scratch.data();
    z.avail_out = static_cast<uInt>(scratch.size());
    status = inflate(&z, Z_NO_FLUSH);
    total += static_cast<int64_t>(scratch.size() - z.avail_out);
    if (status == Z_BUF_ERROR && z.avail_in == 0) break;  // truncated: libhdf5 will say so
  }
  inflateEnd(&z);
  if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) return -1;
  return total;
}

std::string ChunkName(const std::vector<hsize_t>& offset) {
  std::string s;
  for (hsize_t o : offset) s += (s.empty() ? "" : ",") + std::to_string(o);
  return "[" + s + "]";
}

}  // namespace

Status CheckDatasetFilters(hid_t dataset, int64_t chunk_bytes, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle dcpl, H5Take(H5Dget_create_plist(dataset), H5Pclose, StatusCode::kDataLoss, where,
                            "cannot read the dataset's creation properties"));
  int count = H5Pget_nfilters(dcpl.get());
  if (count < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the filter pipeline");
  if (count == 0) return OkStatus();
  Pipeline pipeline;
  for (int i = 0; i < count; ++i) {
    unsigned flags = 0, config = 0;
    size_t cd_count = 0;
    H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &cd_count,
                                     nullptr, 0, nullptr, &config);
    if (id < 0) return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the filter pipeline");
    if (id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_FLETCHER32) {
      return DataLoss(where.Prefix() + "uses HDF5 filter " + std::to_string(id) + " (" +
                      FilterName(id) +
                      "); a golden may use deflate (gzip), shuffle and fletcher32 only");
    }
    if (id == H5Z_FILTER_DEFLATE) {
      if (pipeline.deflate_at >= 0) return DataLoss(where.Prefix() + "applies deflate twice");
      pipeline.deflate_at = i;
    } else if (pipeline.deflate_at >= 0) {
      if (id != H5Z_FILTER_FLETCHER32) {
        return DataLoss(where.Prefix() + "applies " + FilterName(id) +
                        " after deflate; only fletcher32 may follow deflate in a golden");
      }
      pipeline.fletcher_after.push_back(i);
    }
  }
  if (pipeline.deflate_at < 0) return OkStatus();

  ONNXGATE_ASSIGN_OR_RETURN(H5Handle space,
                            H5Take(H5Dget_space(dataset), H5Sclose, StatusCode::kDataLoss, where,
                                   "cannot read the dataspace"));
  int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > H5S_MAX_RANK) {
    return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the dataspace rank");
  }
  std::vector<hsize_t> extent(static_cast<size_t>(rank)), chunk(static_cast<size_t>(rank));
  if (H5Sget_simple_extent_dims(space.get(), extent.data(), nullptr) < 0 ||
      H5Pget_chunk(dcpl.get(), rank, chunk.data()) != rank) {
    return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the dataspace and chunk dims");
  }
  // Chunks are looked up by position (each lookup is one index search), so their number is bounded.
  uint64_t positions = 1;
  for (int d = 0; d < rank; ++d) {
    if (chunk[d] == 0) return DataLoss(where.Prefix() + "has a chunk dim of 0");
    const uint64_t along = extent[d] / chunk[d] + (extent[d] % chunk[d] != 0 ? 1 : 0);
    if (along != 0 && positions > kMaxDeflatedChunks / along) {
      return DataLoss(where.Prefix() + "is deflated in more than " +
                      std::to_string(kMaxDeflatedChunks) + " chunks");
    }
    positions *= along;
  }
  hsize_t file_size = 0;
  {
    H5Handle file(H5Iget_file_id(dataset), H5Fclose);
    if (!file.valid() || H5Fget_filesize(file.get(), &file_size) < 0) {
      return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the file size");
    }
  }
  // What deflate's output may be: the chunk, plus a fletcher32 checksum for each one before it.
  const int64_t limit = chunk_bytes + static_cast<int64_t>(kFletcher32Bytes) * pipeline.deflate_at;
  std::vector<hsize_t> offset(static_cast<size_t>(rank), 0);
  for (uint64_t p = 0; p < positions; ++p) {
    if (p > 0) {  // the next chunk position, last dim fastest
      for (int d = rank - 1; d >= 0; --d) {
        offset[d] += chunk[d];
        if (offset[d] < extent[d]) break;
        offset[d] = 0;
      }
    }
    unsigned mask = 0;
    haddr_t addr = HADDR_UNDEF;
    hsize_t stored_size = 0;
    if (H5Dget_chunk_info_by_coord(dataset, offset.data(), &mask, &addr, &stored_size) < 0) {
      return Hdf5Error(StatusCode::kDataLoss, where,
                       "cannot look up the chunk at " + ChunkName(offset));
    }
    if (addr == HADDR_UNDEF) continue;  // not stored: read as the fill value
    const std::string name = ChunkName(offset);
    if (mask & (1u << pipeline.deflate_at)) continue;  // stored without deflate
    // The index entry's size is checked against the file before it is allocated.
    if (stored_size > file_size || addr > file_size - stored_size) {
      return DataLoss(where.Prefix() + "chunk at " + name + " claims " +
                      std::to_string(stored_size) + " bytes at " + std::to_string(addr) +
                      ", past the end of the " + std::to_string(file_size) + "-byte file");
    }
    std::string stored(static_cast<size_t>(stored_size), '\0');
    uint32_t filters = 0;
    if (stored_size > 0 &&
        H5Dread_chunk(dataset, H5P_DEFAULT, offset.data(), &filters, stored.data()) < 0) {
      return Hdf5Error(StatusCode::kDataLoss, where, "cannot read the stored chunk at " + name);
    }
    for (int at : pipeline.fletcher_after) {
      if (mask & (1u << at)) continue;
      if (stored.size() < kFletcher32Bytes) {
        return DataLoss(where.Prefix() + "chunk at " + name + " is truncated");
      }
      stored.resize(stored.size() - kFletcher32Bytes);
    }
    int64_t inflated = InflatedSize(stored, limit);
    if (inflated < 0) {
      return DataLoss(where.Prefix() + "chunk at " + name + " is not a valid deflate stream");
    }
    if (inflated > limit) {
      return DataLoss(where.Prefix() + "deflated chunk at " + name + " (" +
                      std::to_string(stored.size()) + " bytes stored) inflates past the chunk's " +
                      std::to_string(limit) + " bytes: a compression bomb");
    }
  }
  return OkStatus();
}

}  // namespace onnxgate
