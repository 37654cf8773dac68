// StringNormalizer: drops the stop words from a [C] or [1, C] string tensor and lower- or
// upper-cases the remaining elements under a locale.
#pragma once

#include <locale>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class CaseChange { kNone, kLower, kUpper };

// The locale named `name` ("en_US"), preferring its UTF-8 variants ("en_US.UTF-8",
// "en_US.utf8"); a name with a codeset ("de_DE.UTF-8") is tried as written. Unavailable, with
// the names tried and how to install the locale, when none exists on this machine.
StatusOr<std::locale> LoadLocale(const std::string& name);

// `text` (UTF-8) with every character mapped through the wide-character case tables of `loc`,
// one character to one character (so "ß" stays "ß" when upper-cased). InvalidArgument when
// `text` is not valid UTF-8.
StatusOr<std::string> ChangeCase(const std::string& text, CaseChange change,
                                 const std::locale& loc);

class StringNormalizerKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  StringNormalizerKernel(CaseChange change, bool case_sensitive, std::optional<std::locale> locale,
                         std::unordered_set<std::string> stops)
      : change_(change),
        case_sensitive_(case_sensitive),
        locale_(std::move(locale)),
        stopwords_(std::move(stops)) {}

  // Whether `word` is a stop word (compared in lower case unless case-sensitive).
  StatusOr<bool> IsStopword(const std::string& word) const;

  CaseChange change_;
  bool case_sensitive_;
  // Loaded only when a case change or a case-insensitive stop word match needs it.
  std::optional<std::locale> locale_;
  // As given when case-sensitive, else lower-cased under the locale.
  std::unordered_set<std::string> stopwords_;
};

}  // namespace onnxgate::ref
