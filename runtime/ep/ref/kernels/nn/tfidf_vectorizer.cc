// TfIdfVectorizer: a trie of the pool's n-grams walked from every start position and skip.
#include "runtime/ep/ref/kernels/nn/tfidf_vectorizer.h"

#include <algorithm>

namespace onnxgate::ref {

namespace {

StatusOr<TfIdfVectorizerKernel::Mode> ParseMode(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode"));
  if (mode == "TF") return TfIdfVectorizerKernel::Mode::kTf;
  if (mode == "IDF") return TfIdfVectorizerKernel::Mode::kIdf;
  if (mode == "TFIDF") return TfIdfVectorizerKernel::Mode::kTfIdf;
  return InvalidArgument("attribute 'mode' must be \"TF\", \"IDF\" or \"TFIDF\", got \"" + mode +
                         "\"");
}

bool IsIntegerInput(DataType t) { return t == DataType::kInt32 || t == DataType::kInt64; }

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> TfIdfVectorizerKernel::Create(const KernelInfo& info) {
  std::unique_ptr<TfIdfVectorizerKernel> k(new TfIdfVectorizerKernel());
  ONNXGATE_ASSIGN_OR_RETURN(k->mode_, ParseMode(info));
  ONNXGATE_ASSIGN_OR_RETURN(k->min_gram_, info.GetInt("min_gram_length"));
  ONNXGATE_ASSIGN_OR_RETURN(k->max_gram_, info.GetInt("max_gram_length"));
  ONNXGATE_ASSIGN_OR_RETURN(k->max_skip_, info.GetInt("max_skip_count"));
  if (k->min_gram_ < 1 || k->max_gram_ < k->min_gram_) {
    return InvalidArgument(
        "attributes 'min_gram_length' and 'max_gram_length' must satisfy "
        "1 <= min_gram_length <= max_gram_length, got " +
        std::to_string(k->min_gram_) + " and " + std::to_string(k->max_gram_));
  }
  if (k->max_skip_ < 0) {
    return InvalidArgument("attribute 'max_skip_count' must be >= 0, got " +
                           std::to_string(k->max_skip_));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> ngram_counts, info.GetInts("ngram_counts"));
  ONNXGATE_ASSIGN_OR_RETURN(k->ngram_indexes_, info.GetInts("ngram_indexes"));
  for (int64_t index : k->ngram_indexes_) {
    if (index < 0) {
      return InvalidArgument("attribute 'ngram_indexes' must hold indexes >= 0, got " +
                             ListToString(k->ngram_indexes_));
    }
    k->output_size_ = std::max(k->output_size_, index + 1);
  }

  const bool has_ints = info.has_attribute("pool_int64s");
  const bool has_strings = info.has_attribute("pool_strings");
  if (has_ints == has_strings) {
    return InvalidArgument(std::string("exactly one of the attributes 'pool_int64s' and "
                                       "'pool_strings' must be set, got ") +
                           (has_ints ? "both" : "neither"));
  }
  k->string_pool_ = has_strings;
  std::vector<int64_t> pool_ints;
  std::vector<std::string> pool_strings;
  if (has_ints) {
    ONNXGATE_ASSIGN_OR_RETURN(pool_ints, info.GetInts("pool_int64s"));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(pool_strings, info.GetStrings("pool_strings"));
  }
  const DataType x_type = info.input_type(0);
  if (x_type != DataType::kUndefined &&
      (has_strings ? x_type != DataType::kString : !IsIntegerInput(x_type))) {
    return InvalidArgument(std::string("input X must be ") +
                           (has_strings ? "a string tensor when 'pool_strings' is set"
                                        : "an int32 or int64 tensor when 'pool_int64s' is set") +
                           ", got " + DataTypeShortName(x_type));
  }
  ONNXGATE_RETURN_IF_ERROR(k->BuildPool(ngram_counts, pool_ints, pool_strings));

  ONNXGATE_ASSIGN_OR_RETURN(k->weights_, info.GetFloats("weights", std::vector<float>{}));
  if (k->weights_.empty()) {
    k->weights_.assign(k->ngram_indexes_.size(), 1.0f);
  } else if (k->weights_.size() != k->ngram_indexes_.size()) {
    return InvalidArgument("attribute 'weights' must hold one weight per n-gram (" +
                           std::to_string(k->ngram_indexes_.size()) + "), got " +
                           std::to_string(k->weights_.size()));
  }
  return std::unique_ptr<OpKernel>(std::move(k));
}

Status TfIdfVectorizerKernel::BuildPool(const std::vector<int64_t>& ngram_counts,
                                        const std::vector<int64_t>& pool_ints,
                                        const std::vector<std::string>& pool_strings) {
  const int64_t pool_size =
      static_cast<int64_t>(string_pool_ ? pool_strings.size() : pool_ints.size());
  // Keys of the pool's items: the integers, or each distinct string's first position.
  std::vector<int64_t> keys(pool_ints);
  if (string_pool_) {
    for (const std::string& s : pool_strings) {
      auto [it, inserted] = vocabulary_.emplace(s, static_cast<int64_t>(vocabulary_.size()));
      keys.push_back(it->second);
    }
  }
  if (ngram_counts.empty() ? pool_size > 0 : ngram_counts[0] != 0) {
    return InvalidArgument(
        "attribute 'ngram_counts' must start with 0 (the first "
        "1-gram of the pool), got " +
        ListToString(ngram_counts));
  }
  trie_.assign(1, TrieNode{});
  int64_t gram = 0;  // the n-gram's number in pool order, counted or not
  for (size_t level = 0; level < ngram_counts.size(); ++level) {
    const int64_t n = static_cast<int64_t>(level) + 1;
    const int64_t begin = ngram_counts[level];
    const int64_t end = level + 1 < ngram_counts.size() ? ngram_counts[level + 1] : pool_size;
    if (end < begin || end > pool_size) {
      return InvalidArgument(
          "attribute 'ngram_counts' must be non-decreasing and "
          "within the pool's " +
          std::to_string(pool_size) + " items, got " + ListToString(ngram_counts));
    }
    if ((end - begin) % n != 0) {
      return InvalidArgument("the pool's " + std::to_string(n) + "-grams (items " +
                             std::to_string(begin) + " to " + std::to_string(end) +
                             " by 'ngram_counts') must be a multiple of " + std::to_string(n) +
                             " items, got " + std::to_string(end - begin));
    }
    const bool counted = n >= min_gram_ && n <= max_gram_;
    for (int64_t first = begin; first < end; first += n, ++gram) {
      if (!counted) continue;
      size_t at = 0;
      for (int64_t i = first; i < first + n; ++i) {
        auto it = trie_[at].next.find(keys[i]);
        if (it == trie_[at].next.end()) {
          trie_.emplace_back();
          it = trie_[at].next.emplace(keys[i], trie_.size() - 1).first;
        }
        at = it->second;
      }
      if (trie_[at].gram >= 0) {
        return InvalidArgument("the pool holds the " + std::to_string(n) +
                               "-gram starting at item " + std::to_string(first) +
                               " twice (n-grams " + std::to_string(trie_[at].gram) + " and " +
                               std::to_string(gram) + ")");
      }
      trie_[at].gram = gram;
    }
  }
  if (gram != static_cast<int64_t>(ngram_indexes_.size())) {
    return InvalidArgument(
        "attribute 'ngram_indexes' must hold one index per n-gram "
        "of the pool (" +
        std::to_string(gram) + "), got " + std::to_string(ngram_indexes_.size()));
  }
  return OkStatus();
}

StatusOr<std::vector<int64_t>> TfIdfVectorizerKernel::Keys(const Tensor& x) const {
  std::vector<int64_t> keys(static_cast<size_t>(x.NumElements()));
  switch (x.dtype()) {
    case DataType::kString: {
      if (!string_pool_) break;
      const std::string* s = x.data<std::string>();
      for (size_t i = 0; i < keys.size(); ++i) {
        auto it = vocabulary_.find(s[i]);
        keys[i] = it == vocabulary_.end() ? -1 : it->second;
      }
      return keys;
    }
    case DataType::kInt32: {
      if (string_pool_) break;
      const int32_t* v = x.data<int32_t>();
      std::copy(v, v + keys.size(), keys.begin());
      return keys;
    }
    case DataType::kInt64: {
      if (string_pool_) break;
      const int64_t* v = x.data<int64_t>();
      std::copy(v, v + keys.size(), keys.begin());
      return keys;
    }
    default: break;
  }
  return InvalidArgument(std::string("input X must be ") +
                         (string_pool_ ? "a string tensor when 'pool_strings' is set"
                                       : "an int32 or int64 tensor when 'pool_int64s' is set") +
                         ", got " + DataTypeShortName(x.dtype()));
}

void TfIdfVectorizerKernel::CountRow(const int64_t* row, int64_t length,
                                     std::vector<int64_t>* counts) const {
  // An n-gram with `skip` skips takes items start, start + skip + 1, start + 2 * (skip + 1), ...
  // 1-grams do not depend on the skip and are counted with skip 0 only.
  for (int64_t skip = 0; skip <= max_skip_; ++skip) {
    const int64_t step = skip + 1;
    const int64_t shortest = skip == 0 ? min_gram_ : std::max<int64_t>(min_gram_, 2);
    if (shortest > max_gram_) break;
    if (skip > 0 && step >= length) break;  // no 2-gram fits in the row with this skip
    for (int64_t start = 0; start < length; ++start) {
      size_t at = 0;
      for (int64_t n = 1, pos = start; n <= max_gram_ && pos < length; ++n, pos += step) {
        auto it = trie_[at].next.find(row[pos]);
        if (it == trie_[at].next.end()) break;
        at = it->second;
        if (n >= shortest && trie_[at].gram >= 0) ++(*counts)[static_cast<size_t>(trie_[at].gram)];
      }
    }
  }
}

Status TfIdfVectorizerKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  const Shape& xs = x->shape();
  int64_t rows = 1, length = 1;
  Shape out_shape{output_size_};
  if (xs.rank() == 1) {
    length = xs[0];
  } else if (xs.rank() == 2) {
    rows = xs[0];
    length = xs[1];
    out_shape = Shape{rows, output_size_};
  } else if (xs.rank() != 0) {
    return InvalidArgument("input X must have shape [C] or [N, C], got " + xs.ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> keys, Keys(*x));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, out_shape));
  float* out = y.mutable_data<float>();
  std::vector<int64_t> counts(ngram_indexes_.size());
  std::vector<double> values(static_cast<size_t>(output_size_));
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(counts.begin(), counts.end(), 0);
    std::fill(values.begin(), values.end(), 0.0);
    CountRow(keys.data() + r * length, length, &counts);
    for (size_t g = 0; g < counts.size(); ++g) {
      const double count = static_cast<double>(counts[g]);
      double v = count;  // TF
      if (mode_ == Mode::kIdf) v = counts[g] > 0 ? weights_[g] : 0.0;
      if (mode_ == Mode::kTfIdf) v = weights_[g] * count;
      // Indexes are normally distinct; n-grams sharing one add up.
      values[static_cast<size_t>(ngram_indexes_[g])] += v;
    }
    for (int64_t j = 0; j < output_size_; ++j) {
      out[r * output_size_ + j] = static_cast<float>(values[static_cast<size_t>(j)]);
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
