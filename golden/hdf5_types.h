// The HDF5 element type of each ONNX tensor type in a golden file, and the check that a dataset's
// HDF5 type can hold the onnx_dtype it claims.
#pragma once

#include <hdf5.h>

#include <string>

#include "golden/hdf5_handle.h"
#include "runtime/base/data_type.h"

namespace onnxgate {

// The type a dataset of `dtype` is created with (little-endian, IEEE half for FLOAT16, uint16 for
// BFLOAT16, uint8 for BOOL, variable-length UTF-8 for STRING, compound {r, i} for complex, uint8
// codes for the FLOAT8 types, FLOAT8E8M0 and FLOAT4E2M1, int8 for INT4/INT2 and uint8 for
// UINT4/UINT2 holding one unpacked value per element).
StatusOr<H5Handle> FileTypeFor(DataType dtype, const H5Where& where);

// The in-memory type matching onnxgate's Tensor storage of `dtype` (not for STRING); for the
// packed sub-byte types, the type of their unpacked one-byte-per-element buffer.
StatusOr<H5Handle> MemoryTypeFor(DataType dtype, const H5Where& where);

// The in-memory type to read a dataset of type `file_type` claimed to hold `dtype` into Tensor
// storage (BOOL reads as uint8 bytes, checked by the caller). DataLoss "onnx_dtype FLOAT but HDF5
// type is 64-bit integer" when the file type cannot hold `dtype`. Not for STRING.
StatusOr<H5Handle> ReadTypeFor(hid_t file_type, DataType dtype, const H5Where& where);

// Whether `file_type` is a string type (variable or fixed length).
bool IsStringType(hid_t file_type);

// "32-bit float", "unsigned 16-bit integer", "variable-length string", "compound {r, i}", ...
std::string DescribeHdf5Type(hid_t type);

}  // namespace onnxgate
