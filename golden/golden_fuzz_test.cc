// Mutated goldens: every error ReadGolden returns names the golden file (and, past the open, the
// object), and libhdf5 prints nothing to stderr. libhdf5 1.10.8 crashes or loops on some mutants;
// those are contained by the harness's worker processes, so here each read runs in a child with a
// time and memory bound and only what a finished read returned is judged.
#include <gtest/gtest.h>

#include <random>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::ChildOutcome;
using testing_util::RunInChild;
using testing_util::TempDir;

GoldenFile Varied() {
  GoldenFile g;
  g.producer = "fuzz test";
  g.model_sha256 = Sha256Hex("m");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {
      {"A", 0, Value::FromTensor(Tensor::FromVector<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6})), {}, {}},
      {"s", 1, Value::FromTensor(Tensor::FromVector<std::string>({2}, {"x", "yz"})), {}, {}}};
  set.outputs = {
      {"Y", 0, Value::FromSequence(DataType::kFloat, {Tensor::Scalar<float>(1.f)}), 0.01, {}},
      {"o",
       1,
       Value::OptionalOf(Value::FromTensor(Tensor::FromVector<bool>({2}, {true, false}))),
       {},
       {}}};
  g.sets.push_back(set);
  return g;
}

TEST(GoldenFuzzTest, ErrorsOnMutatedGoldensNameTheFileAndPrintNothing) {
  TempDir dir;
  const std::string original = dir.File("original.h5");
  ASSERT_TRUE(WriteGolden(original, Varied()).ok());
  const std::string bytes = testing_util::FileBytes(original);
  const std::string path = dir.File("mutant.h5");
  std::mt19937 rng(20261121);
  int read_ok = 0, refused = 0, crashed = 0, stopped = 0;
  for (int i = 0; i < 300; ++i) {
    std::string mutant = bytes;
    int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      size_t at = rng() % mutant.size();
      mutant[at] = (rng() % 2 == 0) ? static_cast<char>(mutant[at] ^ (1u << (rng() % 8)))
                                    : static_cast<char>(rng() % 256);
    }
    ASSERT_TRUE(testing_util::WriteBytes(path, mutant));
    ChildOutcome out = RunInChild(
        [&] {
          StatusOr<GoldenFile> g = ReadGolden(path);
          return g.ok() ? std::string("OK") : g.status().message();
        },
        3, uint64_t{512} << 20);
    if (!out.finished) {
      ++(out.timed_out ? stopped : crashed);
      continue;
    }
    EXPECT_EQ(out.stderr_text, "") << "mutant " << i;
    if (out.result == "OK") {
      ++read_ok;
      continue;
    }
    ++refused;
    EXPECT_EQ(out.result.rfind(path + ": ", 0), 0u) << "mutant " << i << ": " << out.result;
    EXPECT_EQ(out.result.find('\n'), std::string::npos) << "mutant " << i << ": " << out.result;
  }
  // Most mutants are refused; a flip in padding or in an unused byte reads fine.
  EXPECT_GT(refused, 100);
  std::cout << "mutants: " << read_ok << " read, " << refused << " refused, " << crashed
            << " crashed, " << stopped << " stopped after 3 s\n";
}

}  // namespace
}  // namespace onnxgate
