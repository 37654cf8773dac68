// Tests of Range: integer and float lengths, negative deltas, Range-27's half types computed in
// stash_type, and rejected inputs and attributes.
#include "runtime/ep/ref/kernels/generator/range.h"

#include <climits>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::Pointwise;

class RangeTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  template <typename T>
  std::vector<Value> Scalars(T start, T limit, T delta) {
    return {TensorValue<T>({}, {start}), TensorValue<T>({}, {limit}), TensorValue<T>({}, {delta})};
  }
};

TEST_F(RangeTest, IntegersAndFloats) {
  ASSERT_OK_AND_ASSIGN(auto i,
                       RunNode(registry_, "Y = Range(S, L, D)", 11, Scalars<int32_t>(10, 4, -3)));
  EXPECT_THAT(ValuesOf<int32_t>(i[0]), ElementsAre(10, 7));
  ASSERT_OK_AND_ASSIGN(
      auto f, RunNode(registry_, "Y = Range(S, L, D)", 27, Scalars<float>(1.0f, 2.0f, 0.25f)));
  EXPECT_THAT(ValuesOf<float>(f[0]), ElementsAre(1.0f, 1.25f, 1.5f, 1.75f));
  ASSERT_OK_AND_ASSIGN(auto none,
                       RunNode(registry_, "Y = Range(S, L, D)", 11, Scalars<int64_t>(5, 1, 2)));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(0));
}

TEST_F(RangeTest, HalfTypesFromVersion27) {
  std::vector<Value> h = {HalfValue({}, {1.0f}), HalfValue({}, {2.0f}), HalfValue({}, {0.25f})};
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Range(S, L, D)", 27, h));
  EXPECT_EQ(out[0].tensor().dtype(), DataType::kFloat16);
  EXPECT_THAT(HalfValuesOf<Float16>(out[0]), ElementsAre(1.0f, 1.25f, 1.5f, 1.75f));
  // 2048 + i in float16 steps by 2 above 2048: the elements are computed in float and rounded
  // once, so 2049 ties to even (2048) and 2051 to 2052.
  std::vector<Value> big = {HalfValue({}, {2048.0f}), HalfValue({}, {2052.0f}),
                            HalfValue({}, {1.0f})};
  ASSERT_OK_AND_ASSIGN(auto b,
                       RunNode(registry_, "Y = Range <stash_type = 11> (S, L, D)", 27, big));
  EXPECT_THAT(HalfValuesOf<Float16>(b[0]), ElementsAre(2048.0f, 2048.0f, 2050.0f, 2052.0f));
  std::vector<Value> bf = {BFloat16Value({}, {0.0f}), BFloat16Value({}, {-3.0f}),
                           BFloat16Value({}, {-1.0f})};
  ASSERT_OK_AND_ASSIGN(auto n, RunNode(registry_, "Y = Range(S, L, D)", 27, bf));
  EXPECT_THAT(HalfValuesOf<BFloat16>(n[0]), ElementsAre(0.0f, -1.0f, -2.0f));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 26, h), kUnimplemented);
}

TEST_F(RangeTest, RejectsBadInputs) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 11, Scalars<int32_t>(0, 4, 0)),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 27,
                            {HalfValue({}, {0}), HalfValue({}, {1}), HalfValue({}, {0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 11,
                            {TensorValue<int32_t>({2}, {0, 1}), TensorValue<int32_t>({}, {4}),
                             TensorValue<int32_t>({}, {1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Range <stash_type = 10> (S, L, D)", 27, Scalars<float>(0, 1, 1)),
      kInvalidArgument);
}

TEST_F(RangeTest, CountsUpAndDown) {
  ASSERT_OK_AND_ASSIGN(auto up, RunNode(registry_, "Y = Range(S, L, D)", 11,
                                        {TensorValue<float>({}, {1}), TensorValue<float>({}, {2}),
                                         TensorValue<float>({}, {0.3f})}));
  EXPECT_THAT(ValuesOf<float>(up[0]),
              Pointwise(FloatNear(1e-6f), std::vector<float>{1, 1.3f, 1.6f, 1.9f}));
  ASSERT_OK_AND_ASSIGN(auto down,
                       RunNode(registry_, "Y = Range(S, L, D)", 11,
                               {TensorValue<int32_t>({}, {10}), TensorValue<int32_t>({}, {6}),
                                TensorValue<int32_t>({}, {-3})}));
  EXPECT_THAT(ValuesOf<int32_t>(down[0]), ElementsAre(10, 7));
  ASSERT_OK_AND_ASSIGN(auto none,
                       RunNode(registry_, "Y = Range(S, L, D)", 11,
                               {TensorValue<int64_t>({}, {5}), TensorValue<int64_t>({}, {1}),
                                TensorValue<int64_t>({}, {1})}));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(0));
  // Near the int64 limits the length is still exact.
  ASSERT_OK_AND_ASSIGN(
      auto edge, RunNode(registry_, "Y = Range(S, L, D)", 11,
                         {TensorValue<int64_t>({}, {INT64_MAX - 2}),
                          TensorValue<int64_t>({}, {INT64_MAX}), TensorValue<int64_t>({}, {1})}));
  EXPECT_THAT(ValuesOf<int64_t>(edge[0]), ElementsAre(INT64_MAX - 2, INT64_MAX - 1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 11,
                            {TensorValue<int64_t>({}, {0}), TensorValue<int64_t>({}, {5}),
                             TensorValue<int64_t>({}, {0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Range(S, L, D)", 11,
                            {TensorValue<double>({}, {0}), TensorValue<double>({}, {1e300}),
                             TensorValue<double>({}, {1e-300})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
