// ScopedAddressSpaceBound and ReadGoldenBounded: during a golden read the process cannot grow by
// more than the bound (an allocation past it fails), the previous limit comes back after it, and
// a lower limit already in place is kept. Each check runs in a forked child, since RLIMIT_AS is
// process-wide.
#include "golden/golden_read_bound.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>

#include "golden/golden_test_util.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::ChildOutcome;
using testing_util::RunInChild;
using testing_util::TempDir;

constexpr size_t kMiB = size_t{1} << 20;

// Whether `bytes` can be allocated now (one byte is written, so the call is not optimized away).
bool CanAllocate(size_t bytes) {
  static char* volatile sink = nullptr;
  char* p = static_cast<char*>(std::malloc(bytes));
  if (p == nullptr) return false;
  p[0] = 1;
  sink = p;
  std::free(sink);
  return true;
}

TEST(GoldenReadBoundTest, AnAllocationPastTheBoundFailsAndTheLimitComesBack) {
  ChildOutcome out = RunInChild(
      [] {
        std::string r;
        {
          ScopedAddressSpaceBound bound(64 * kMiB);
          r += bound.active() ? "active " : "inactive ";
          r += CanAllocate(512 * kMiB) ? "allocated " : "refused ";
        }
        r += CanAllocate(512 * kMiB) ? "allocated" : "refused";
        return r;
      },
      20);
  ASSERT_TRUE(out.finished) << out.stderr_text;
  EXPECT_EQ(out.result, "active refused allocated");
}

TEST(GoldenReadBoundTest, ALowerLimitAlreadyInPlaceIsKept) {
  ChildOutcome out = RunInChild(
      [] {
        struct rlimit low;
        getrlimit(RLIMIT_AS, &low);
        low.rlim_cur = CurrentAddressSpaceBytes() + 256 * kMiB;
        setrlimit(RLIMIT_AS, &low);
        std::string r;
        {
          ScopedAddressSpaceBound bound(kGoldenReadAddressSpaceBytes);
          r += bound.active() ? "active " : "inactive ";
        }
        struct rlimit after;
        getrlimit(RLIMIT_AS, &after);
        r += after.rlim_cur == low.rlim_cur ? "kept" : "changed";
        return r;
      },
      20);
  ASSERT_TRUE(out.finished) << out.stderr_text;
  EXPECT_EQ(out.result, "inactive kept");
}

TEST(GoldenReadBoundTest, AGoldenReadsWithinTheDefaultBound) {
  TempDir dir;
  const std::string path = dir.File("g.h5");
  GoldenFile g;
  g.producer = "bound test";
  g.model_sha256 = Sha256Hex("m");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {{"X", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})), {}, {}}};
  set.outputs = {{"Y", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {2, 4})), {}, {}}};
  g.sets.push_back(set);
  ASSERT_TRUE(WriteGolden(path, g).ok());
  StatusOr<GoldenFile> back = ReadGoldenBounded(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->sets[0].outputs[0].name, "Y");
}

// A golden found by fuzzing (fuzz/regressions/golden/) on which libhdf5 1.10.8 asks for 2 GiB
// per variable-length string from a corrupted length (4 GB resident before it gives up, without a
// bound): under the bound the first such allocation fails inside the read, which is refused.
TEST(GoldenReadBoundTest, LibHdf5sOversizedAllocationOnAFuzzFindingFailsInsideTheRead) {
  const std::string path = std::string(ONNXGATE_SOURCE_DIR) +
                           "/fuzz/regressions/golden/oom-H5T_conv_vlen-2GiB-per-string";
  ChildOutcome out = RunInChild(
      [&] {
        StatusOr<GoldenFile> g = ReadGoldenBounded(path, uint64_t{1} << 30);
        return g.ok() ? std::string("OK") : g.status().ToString();
      },
      30);
  ASSERT_TRUE(out.finished) << out.stderr_text;
  EXPECT_NE(out.result.find("DATA_LOSS: " + path), std::string::npos) << out.result;
  EXPECT_NE(out.result.find("memory allocation failed"), std::string::npos) << out.result;
}

}  // namespace
}  // namespace onnxgate
