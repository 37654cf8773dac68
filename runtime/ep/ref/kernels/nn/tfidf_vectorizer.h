// TfIdfVectorizer: counts the pool's n-grams (with up to max_skip_count items skipped between
// consecutive items) in each row of a [C] or [N, C] tensor and weights the counts (TF, IDF,
// TFIDF) into a float vector per row.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class TfIdfVectorizerKernel : public OpKernel {
 public:
  enum class Mode { kTf, kIdf, kTfIdf };

  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  // A trie of the pool's n-grams of the counted lengths over item keys (the integers
  // themselves, or a string's position in the vocabulary). Node 0 is the root.
  struct TrieNode {
    std::unordered_map<int64_t, size_t> next;
    int64_t gram = -1;  // the n-gram's number in pool order when a counted n-gram ends here
  };

  // Fills the trie (and, for string pools, the vocabulary) from the pool attributes.
  Status BuildPool(const std::vector<int64_t>& ngram_counts, const std::vector<int64_t>& pool_ints,
                   const std::vector<std::string>& pool_strings);
  // The keys of input X's items (strings missing from the pool map to -1, which no n-gram has).
  StatusOr<std::vector<int64_t>> Keys(const Tensor& x) const;
  // Adds the occurrences of every counted n-gram in `row` to `counts` (one per n-gram).
  void CountRow(const int64_t* row, int64_t length, std::vector<int64_t>* counts) const;

  Mode mode_ = Mode::kTf;
  int64_t min_gram_ = 1, max_gram_ = 1, max_skip_ = 0;
  bool string_pool_ = false;
  std::vector<int64_t> ngram_indexes_;
  std::vector<float> weights_;  // one per n-gram; all ones when the attribute is absent
  int64_t output_size_ = 0;
  std::vector<TrieNode> trie_;
  std::unordered_map<std::string, int64_t> vocabulary_;
};

}  // namespace onnxgate::ref
