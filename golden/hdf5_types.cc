// DataType <-> HDF5 element types, following h5py's conventions so that goldens read naturally as
// numpy arrays (float16 as IEEE half, complex as compound {r, i}, float8/float4 codes as uint8,
// sub-byte integers unpacked as int8/uint8).
#include "golden/hdf5_types.h"

#include <complex>

namespace onnxgate {

namespace {

static_assert(sizeof(bool) == 1, "BOOL tensors are written from bool storage as uint8");
static_assert(sizeof(std::complex<float>) == 8 && sizeof(std::complex<double>) == 16,
              "complex tensors are written as {r, i} pairs");

StatusOr<H5Handle> Copy(hid_t predefined, const H5Where& where) {
  return H5Take(H5Tcopy(predefined), H5Tclose, StatusCode::kInternal, where,
                "cannot copy an HDF5 type");
}

// A 16-bit float with the given exponent/mantissa split: 1 sign bit at 15, then the exponent,
// then the mantissa at bit 0 (IEEE half: 5/10, bias 15; bfloat16: 8/7, bias 127).
StatusOr<H5Handle> Float16Layout(size_t exponent_bits, size_t mantissa_bits, size_t bias,
                                 const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle type, Copy(H5T_IEEE_F32LE, where));
  hid_t t = type.get();
  if (H5Tset_fields(t, 15, mantissa_bits, exponent_bits, 0, mantissa_bits) < 0 ||
      H5Tset_size(t, 2) < 0 || H5Tset_precision(t, 16) < 0 || H5Tset_ebias(t, bias) < 0) {
    return Hdf5Error(StatusCode::kInternal, where, "cannot build a 16-bit float type");
  }
  return type;
}

StatusOr<H5Handle> ComplexType(hid_t part, size_t part_size, const H5Where& where) {
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle type, H5Take(H5Tcreate(H5T_COMPOUND, 2 * part_size), H5Tclose, StatusCode::kInternal,
                            where, "cannot build a compound type"));
  if (H5Tinsert(type.get(), "r", 0, part) < 0 || H5Tinsert(type.get(), "i", part_size, part) < 0) {
    return Hdf5Error(StatusCode::kInternal, where, "cannot build a complex type");
  }
  return type;
}

bool IsFloat16Layout(hid_t t, size_t exponent_bits, size_t mantissa_bits) {
  size_t spos = 0, epos = 0, esize = 0, mpos = 0, msize = 0;
  if (H5Tget_fields(t, &spos, &epos, &esize, &mpos, &msize) < 0) {
    H5Eclear2(H5E_DEFAULT);
    return false;
  }
  return H5Tget_size(t) == 2 && esize == exponent_bits && msize == mantissa_bits;
}

bool IsIntegerType(hid_t t, size_t size, bool is_signed) {
  return H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) == size &&
         (H5Tget_sign(t) == H5T_SGN_2) == is_signed;
}

bool IsFloatType(hid_t t, size_t size) {
  return H5Tget_class(t) == H5T_FLOAT && H5Tget_size(t) == size;
}

// A compound of exactly two float members "r" and "i" of `part_size` bytes each.
bool IsComplexType(hid_t t, size_t part_size) {
  if (H5Tget_class(t) != H5T_COMPOUND || H5Tget_nmembers(t) != 2) return false;
  for (unsigned i = 0; i < 2; ++i) {
    char* name = H5Tget_member_name(t, i);
    if (name == nullptr) {
      H5Eclear2(H5E_DEFAULT);
      return false;
    }
    std::string member(name);
    H5free_memory(name);
    if (member != "r" && member != "i") return false;
    hid_t member_type = H5Tget_member_type(t, i);
    if (member_type < 0) {
      H5Eclear2(H5E_DEFAULT);
      return false;
    }
    bool ok = IsFloatType(member_type, part_size);
    H5Tclose(member_type);
    if (!ok) return false;
  }
  return true;
}

// The file type can be read as `dtype` without losing meaning.
bool Holds(hid_t t, DataType dtype) {
  switch (dtype) {
    case DataType::kFloat: return IsFloatType(t, 4);
    case DataType::kDouble: return IsFloatType(t, 8);
    case DataType::kFloat16: return IsFloatType(t, 2) && IsFloat16Layout(t, 5, 10);
    case DataType::kBFloat16:
      return IsIntegerType(t, 2, false) || (IsFloatType(t, 2) && IsFloat16Layout(t, 8, 7));
    case DataType::kInt8: return IsIntegerType(t, 1, true);
    case DataType::kInt16: return IsIntegerType(t, 2, true);
    case DataType::kInt32: return IsIntegerType(t, 4, true);
    case DataType::kInt64: return IsIntegerType(t, 8, true);
    case DataType::kUint8: return IsIntegerType(t, 1, false);
    case DataType::kUint16: return IsIntegerType(t, 2, false);
    case DataType::kUint32: return IsIntegerType(t, 4, false);
    case DataType::kUint64: return IsIntegerType(t, 8, false);
    // h5py writes numpy bools as an 8-bit enum {FALSE, TRUE}; accept that beside uint8.
    case DataType::kBool:
      return (H5Tget_class(t) == H5T_INTEGER || H5Tget_class(t) == H5T_ENUM) && H5Tget_size(t) == 1;
    case DataType::kString: return IsStringType(t);
    case DataType::kComplex64: return IsComplexType(t, 4);
    case DataType::kComplex128: return IsComplexType(t, 8);
    // The 8-bit and 4-bit floats are stored as their codes, one per byte.
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1: return IsIntegerType(t, 1, false);
    // Sub-byte integers are stored unpacked, one value per byte.
    case DataType::kInt4:
    case DataType::kInt2: return IsIntegerType(t, 1, true);
    case DataType::kUint4:
    case DataType::kUint2: return IsIntegerType(t, 1, false);
    case DataType::kUndefined: break;
  }
  return false;
}

}  // namespace

StatusOr<H5Handle> FileTypeFor(DataType dtype, const H5Where& where) {
  switch (dtype) {
    case DataType::kFloat: return Copy(H5T_IEEE_F32LE, where);
    case DataType::kDouble: return Copy(H5T_IEEE_F64LE, where);
    case DataType::kFloat16: return Float16Layout(5, 10, 15, where);
    case DataType::kBFloat16: return Copy(H5T_STD_U16LE, where);
    case DataType::kInt8: return Copy(H5T_STD_I8LE, where);
    case DataType::kInt16: return Copy(H5T_STD_I16LE, where);
    case DataType::kInt32: return Copy(H5T_STD_I32LE, where);
    case DataType::kInt64: return Copy(H5T_STD_I64LE, where);
    case DataType::kUint8: return Copy(H5T_STD_U8LE, where);
    case DataType::kUint16: return Copy(H5T_STD_U16LE, where);
    case DataType::kUint32: return Copy(H5T_STD_U32LE, where);
    case DataType::kUint64: return Copy(H5T_STD_U64LE, where);
    case DataType::kBool: return Copy(H5T_STD_U8LE, where);
    case DataType::kString: return Utf8StringType(where);
    case DataType::kComplex64: return ComplexType(H5T_IEEE_F32LE, 4, where);
    case DataType::kComplex128: return ComplexType(H5T_IEEE_F64LE, 8, where);
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
    case DataType::kUint4:
    case DataType::kUint2: return Copy(H5T_STD_U8LE, where);
    case DataType::kInt4:
    case DataType::kInt2: return Copy(H5T_STD_I8LE, where);
    case DataType::kUndefined: break;
  }
  return InvalidArgument(where.Prefix() + "cannot store a tensor of data type " +
                         DataTypeName(dtype));
}

StatusOr<H5Handle> MemoryTypeFor(DataType dtype, const H5Where& where) {
  switch (dtype) {
    case DataType::kFloat: return Copy(H5T_NATIVE_FLOAT, where);
    case DataType::kDouble: return Copy(H5T_NATIVE_DOUBLE, where);
    case DataType::kFloat16: return Float16Layout(5, 10, 15, where);
    case DataType::kBFloat16: return Copy(H5T_NATIVE_UINT16, where);
    case DataType::kInt8: return Copy(H5T_NATIVE_INT8, where);
    case DataType::kInt16: return Copy(H5T_NATIVE_INT16, where);
    case DataType::kInt32: return Copy(H5T_NATIVE_INT32, where);
    case DataType::kInt64: return Copy(H5T_NATIVE_INT64, where);
    case DataType::kUint8: return Copy(H5T_NATIVE_UINT8, where);
    case DataType::kUint16: return Copy(H5T_NATIVE_UINT16, where);
    case DataType::kUint32: return Copy(H5T_NATIVE_UINT32, where);
    case DataType::kUint64: return Copy(H5T_NATIVE_UINT64, where);
    case DataType::kBool: return Copy(H5T_NATIVE_UINT8, where);
    case DataType::kComplex64: return ComplexType(H5T_NATIVE_FLOAT, 4, where);
    case DataType::kComplex128: return ComplexType(H5T_NATIVE_DOUBLE, 8, where);
    // Float8 tensors are one byte per element already; the packed types are unpacked to one
    // byte per element by the caller before writing and after reading.
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
    case DataType::kUint4:
    case DataType::kUint2: return Copy(H5T_NATIVE_UINT8, where);
    case DataType::kInt4:
    case DataType::kInt2: return Copy(H5T_NATIVE_INT8, where);
    case DataType::kString:
    case DataType::kUndefined: break;
  }
  return Internal(where.Prefix() + "no in-memory HDF5 type for " + DataTypeName(dtype));
}

StatusOr<H5Handle> ReadTypeFor(hid_t file_type, DataType dtype, const H5Where& where) {
  if (!Holds(file_type, dtype)) {
    return DataLoss(where.Prefix() + "onnx_dtype " + DataTypeName(dtype) + " but HDF5 type is " +
                    DescribeHdf5Type(file_type));
  }
  // bfloat16 stored as a 16-bit float type: read its bits unchanged in little-endian order.
  if (dtype == DataType::kBFloat16 && H5Tget_class(file_type) == H5T_FLOAT) {
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle mem, Copy(file_type, where));
    ONNXGATE_RETURN_IF_ERROR(H5Check(H5Tset_order(mem.get(), H5T_ORDER_LE), StatusCode::kInternal,
                                     where, "cannot set byte order"));
    return mem;
  }
  if (dtype == DataType::kBool && H5Tget_class(file_type) == H5T_ENUM) {
    return H5Take(H5Tget_native_type(file_type, H5T_DIR_ASCEND), H5Tclose, StatusCode::kDataLoss,
                  where, "cannot read an enum type");
  }
  return MemoryTypeFor(dtype, where);
}

bool IsStringType(hid_t file_type) { return H5Tget_class(file_type) == H5T_STRING; }

std::string DescribeHdf5Type(hid_t t) {
  std::string bits = std::to_string(H5Tget_size(t) * 8) + "-bit ";
  switch (H5Tget_class(t)) {
    case H5T_INTEGER: return (H5Tget_sign(t) == H5T_SGN_NONE ? "unsigned " : "") + bits + "integer";
    case H5T_FLOAT:
      if (IsFloatType(t, 2) && IsFloat16Layout(t, 8, 7)) return "16-bit float (bfloat16 layout)";
      return bits + "float";
    case H5T_STRING: {
      htri_t variable = H5Tis_variable_str(t);
      return variable > 0 ? "variable-length string" : "fixed-length string";
    }
    case H5T_COMPOUND: {
      std::string s = "compound {";
      int n = H5Tget_nmembers(t);
      for (int i = 0; i < n; ++i) {
        char* name = H5Tget_member_name(t, static_cast<unsigned>(i));
        s += (i ? ", " : "") + std::string(name ? name : "?");
        if (name) H5free_memory(name);
      }
      return s + "}";
    }
    case H5T_ENUM: return bits + "enum";
    case H5T_BITFIELD: return bits + "bitfield";
    case H5T_OPAQUE: return bits + "opaque";
    case H5T_REFERENCE: return "reference";
    case H5T_VLEN: return "variable-length sequence";
    case H5T_ARRAY: return "array";
    case H5T_TIME: return "time";
    default: break;
  }
  return "unknown type";
}

}  // namespace onnxgate
