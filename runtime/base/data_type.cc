// DataType names, sizes and predicates; Float16/BFloat16 conversions through Eigen's types.
#include "runtime/base/data_type.h"

#include <Eigen/Core>
#include <cctype>
#include <cstring>

namespace onnxgate {

Float16 Float16::FromFloat(float f) {
  Float16 h;
  h.bits = Eigen::numext::bit_cast<uint16_t>(Eigen::half(f));
  return h;
}
float Float16::ToFloat() const {
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits));
}
BFloat16 BFloat16::FromFloat(float f) {
  BFloat16 b;
  b.bits = Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(f));
  return b;
}
float BFloat16::ToFloat() const {
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(bits));
}

namespace {
struct TypeInfo {
  DataType type;
  const char* name;
  const char* short_name;
  size_t size;
};
constexpr TypeInfo kTypes[] = {
    {DataType::kUndefined, "UNDEFINED", "undefined", 0},
    {DataType::kFloat, "FLOAT", "float", 4},
    {DataType::kUint8, "UINT8", "uint8", 1},
    {DataType::kInt8, "INT8", "int8", 1},
    {DataType::kUint16, "UINT16", "uint16", 2},
    {DataType::kInt16, "INT16", "int16", 2},
    {DataType::kInt32, "INT32", "int32", 4},
    {DataType::kInt64, "INT64", "int64", 8},
    {DataType::kString, "STRING", "string", 0},
    {DataType::kBool, "BOOL", "bool", 1},
    {DataType::kFloat16, "FLOAT16", "float16", 2},
    {DataType::kDouble, "DOUBLE", "double", 8},
    {DataType::kUint32, "UINT32", "uint32", 4},
    {DataType::kUint64, "UINT64", "uint64", 8},
    {DataType::kComplex64, "COMPLEX64", "complex64", 8},
    {DataType::kComplex128, "COMPLEX128", "complex128", 16},
    {DataType::kBFloat16, "BFLOAT16", "bfloat16", 2},
};
const TypeInfo& Info(DataType type) {
  int32_t v = static_cast<int32_t>(type);
  if (v < 0 || v > 16) return kTypes[0];
  return kTypes[v];
}
}  // namespace

const char* DataTypeName(DataType type) { return Info(type).name; }
const char* DataTypeShortName(DataType type) { return Info(type).short_name; }
size_t DataTypeSize(DataType type) { return Info(type).size; }
bool IsValidDataType(int32_t value) { return value >= 1 && value <= 16; }

StatusOr<DataType> DataTypeFromName(const std::string& name) {
  for (const TypeInfo& t : kTypes) {
    if (name == t.name || name == t.short_name) return t.type;
  }
  return NotFound("unknown data type name '" + name + "'");
}

bool IsFloatingPoint(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 ||
         t == DataType::kBFloat16;
}
bool IsSignedInteger(DataType t) {
  return t == DataType::kInt8 || t == DataType::kInt16 || t == DataType::kInt32 ||
         t == DataType::kInt64;
}
bool IsInteger(DataType t) {
  return IsSignedInteger(t) || t == DataType::kUint8 || t == DataType::kUint16 ||
         t == DataType::kUint32 || t == DataType::kUint64;
}
bool IsComplex(DataType t) { return t == DataType::kComplex64 || t == DataType::kComplex128; }

}  // namespace onnxgate
