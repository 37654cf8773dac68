// StringNormalizer: stop word removal and locale-aware case changes on UTF-8 strings.
#include "runtime/ep/ref/kernels/text/string_normalizer.h"

#include <stdexcept>

#include "runtime/base/utf8.h"

namespace onnxgate::ref {

namespace {

static_assert(sizeof(wchar_t) == 4, "StringNormalizer needs wchar_t to hold a Unicode code point");

// The default of the 'locale' attribute (the schema leaves it to the implementation).
constexpr char kDefaultLocale[] = "en_US";

// Decodes UTF-8 into code points; false on a malformed, overlong or out-of-range sequence.
bool DecodeUtf8(const std::string& in, std::wstring* out) {
  out->clear();
  size_t pos = 0;
  while (pos < in.size()) {
    size_t length;
    const char32_t cp = DecodeUtf8At(in, pos, &length);
    if (cp == kInvalidUtf8) return false;
    out->push_back(static_cast<wchar_t>(cp));
    pos += length;
  }
  return true;
}

StatusOr<CaseChange> ParseCaseChange(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string action, info.GetString("case_change_action", "NONE"));
  if (action == "NONE") return CaseChange::kNone;
  if (action == "LOWER") return CaseChange::kLower;
  if (action == "UPPER") return CaseChange::kUpper;
  return InvalidArgument(
      "attribute 'case_change_action' must be \"LOWER\", \"UPPER\" or "
      "\"NONE\", got \"" +
      action + "\"");
}

}  // namespace

StatusOr<std::locale> LoadLocale(const std::string& name) {
  // "ll_CC@modifier" takes its codeset before the modifier: "ll_CC.UTF-8@modifier".
  const size_t at = name.find('@');
  const std::string base = name.substr(0, at);
  const std::string modifier = at == std::string::npos ? "" : name.substr(at);
  std::vector<std::string> candidates;
  if (base.find('.') != std::string::npos) {
    candidates = {name};
  } else {
    candidates = {base + ".UTF-8" + modifier, base + ".utf8" + modifier, name};
  }
  std::string tried;
  for (const std::string& candidate : candidates) {
    try {
      return std::locale(candidate);
    } catch (const std::runtime_error&) {
      tried += (tried.empty() ? "'" : ", '") + candidate + "'";
    }
  }
  const std::string to_generate =
      base.find('.') != std::string::npos ? name : base + ".UTF-8" + modifier;
  return Unavailable("locale '" + name + "' is not installed on this machine (tried " + tried +
                     "); install it, e.g. with `locale-gen " + to_generate +
                     "` (package 'locales' on Debian/Ubuntu), or set the node's 'locale' "
                     "attribute to one that `locale -a` lists");
}

StatusOr<std::string> ChangeCase(const std::string& text, CaseChange change,
                                 const std::locale& loc) {
  if (change == CaseChange::kNone) return text;
  std::wstring wide;
  if (!DecodeUtf8(text, &wide)) return InvalidArgument("\"" + text + "\" is not valid UTF-8");
  const auto& ctype = std::use_facet<std::ctype<wchar_t>>(loc);
  wchar_t* begin = wide.data();
  if (change == CaseChange::kLower) {
    ctype.tolower(begin, begin + wide.size());
  } else {
    ctype.toupper(begin, begin + wide.size());
  }
  std::string out;
  out.reserve(text.size());
  for (wchar_t c : wide) AppendUtf8(static_cast<char32_t>(c), &out);
  return out;
}

StatusOr<std::unique_ptr<OpKernel>> StringNormalizerKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(CaseChange change, ParseCaseChange(info));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t case_sensitive, info.GetInt("is_case_sensitive", 0));
  if (case_sensitive != 0 && case_sensitive != 1) {
    return InvalidArgument("attribute 'is_case_sensitive' must be 0 or 1, got " +
                           std::to_string(case_sensitive));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string locale_name, info.GetString("locale", kDefaultLocale));
  if (locale_name.empty()) locale_name = kDefaultLocale;
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> stopwords,
                            info.GetStrings("stopwords", std::vector<std::string>{}));
  if (info.input_type(0) != DataType::kUndefined && info.input_type(0) != DataType::kString) {
    return InvalidArgument(std::string("input X must be a string tensor, got ") +
                           DataTypeShortName(info.input_type(0)));
  }

  // The locale only matters for case changes and case-insensitive matches; a node that needs
  // neither runs on machines without it.
  std::optional<std::locale> locale;
  if (change != CaseChange::kNone || (case_sensitive == 0 && !stopwords.empty())) {
    auto loaded = LoadLocale(locale_name);
    if (!loaded.ok()) return loaded.status();
    locale = std::move(loaded).value();
  }
  std::unordered_set<std::string> stops;
  for (const std::string& word : stopwords) {
    if (case_sensitive == 1) {
      stops.insert(word);
      continue;
    }
    auto folded = ChangeCase(word, CaseChange::kLower, *locale);
    if (!folded.ok()) {
      return folded.status().WithContext("attribute 'stopwords'");
    }
    stops.insert(std::move(folded).value());
  }
  return std::unique_ptr<OpKernel>(
      new StringNormalizerKernel(change, case_sensitive == 1, std::move(locale), std::move(stops)));
}

StatusOr<bool> StringNormalizerKernel::IsStopword(const std::string& word) const {
  if (stopwords_.empty()) return false;
  if (case_sensitive_) return stopwords_.count(word) > 0;
  ONNXGATE_ASSIGN_OR_RETURN(std::string folded, ChangeCase(word, CaseChange::kLower, *locale_));
  return stopwords_.count(folded) > 0;
}

Status StringNormalizerKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  if (x->dtype() != DataType::kString) {
    return InvalidArgument(std::string("input X must be a string tensor, got ") +
                           DataTypeShortName(x->dtype()));
  }
  const Shape& xs = x->shape();
  const bool two_d = xs.rank() == 2;
  if (!(xs.rank() == 1 || (two_d && xs[0] == 1))) {
    return InvalidArgument("input X must have shape [C] or [1, C], got " + xs.ToString());
  }
  const std::string* in = x->data<std::string>();
  std::vector<std::string> kept;
  for (int64_t i = 0; i < x->NumElements(); ++i) {
    auto stop = IsStopword(in[i]);
    if (!stop.ok()) return stop.status().WithContext("X element " + std::to_string(i));
    if (*stop) continue;
    if (change_ == CaseChange::kNone) {
      kept.push_back(in[i]);
      continue;
    }
    auto changed = ChangeCase(in[i], change_, *locale_);
    if (!changed.ok()) return changed.status().WithContext("X element " + std::to_string(i));
    kept.push_back(std::move(changed).value());
  }
  // With every element dropped the output is one empty string of the input's rank.
  if (kept.empty()) kept.emplace_back();
  const int64_t n = static_cast<int64_t>(kept.size());
  ctx.set_output(0, Tensor::FromVector<std::string>(two_d ? Shape{1, n} : Shape{n}, kept));
  return OkStatus();
}

}  // namespace onnxgate::ref
