// `onnxgate sweep` (see batch_sweep.h).
#include "harness/models/batch_sweep.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/models/model_worker.h"
#include "harness/worker.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

// The axis of a declared value whose dimension is named `dim`; -1 when it has none.
int AxisOf(const ValueInfo& info, const std::string& dim) {
  for (size_t i = 0; i < info.dims.size(); ++i) {
    if (info.dims[i].symbol == dim) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

StatusOr<Tensor> SliceRow(const Tensor& t, size_t axis, int64_t index) {
  const std::vector<int64_t>& dims = t.shape().dims();
  if (axis >= dims.size() || index < 0 || index >= dims[axis]) {
    return InvalidArgument("row " + std::to_string(index) + " of axis " + std::to_string(axis) +
                           " is outside shape " + t.shape().ToString());
  }
  if (IsPackedSubByte(t.dtype())) {
    return InvalidArgument(std::string("values of element type ") + DataTypeShortName(t.dtype()) +
                           " cannot be split by row");
  }
  std::vector<int64_t> out_dims = dims;
  out_dims[axis] = 1;
  Tensor out(t.dtype(), Shape(out_dims));
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= dims[i];
  for (size_t i = axis + 1; i < dims.size(); ++i) inner *= dims[i];
  if (t.dtype() == DataType::kString) {
    const std::string* in = t.data<std::string>();
    std::string* o = out.mutable_data<std::string>();
    for (int64_t b = 0; b < outer; ++b) {
      for (int64_t k = 0; k < inner; ++k)
        o[b * inner + k] = in[(b * dims[axis] + index) * inner + k];
    }
    return out;
  }
  const size_t element = DataTypeSize(t.dtype());
  const char* in = static_cast<const char*>(t.raw_data());
  char* o = static_cast<char*>(out.mutable_raw_data());
  for (int64_t b = 0; b < outer; ++b) {
    std::memcpy(o + b * inner * element, in + (b * dims[axis] + index) * inner * element,
                inner * element);
  }
  return out;
}

const char* const kBatchDimNames[3] = {"batch", "batch_size", "N"};

bool IsBatchDimension(const std::string& dim, const std::string& batch_dim) {
  if (!batch_dim.empty()) return dim == batch_dim;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const char* name : kBatchDimNames) {
    if (lower(dim) == lower(name)) return true;
  }
  return false;
}

bool BatchSweepRecord::passed() const {
  for (const BatchRowCheck& r : rows) {
    if (!r.comparison.passed) return false;
  }
  return true;
}

namespace {

// One step, run in a worker: the model loaded on `side`, run at `size` of the swept dimension
// and row by row; `sweep` (its header filled in) gets the row checks of that size and the
// outputs without the dimension.
Status SweepOneSize(const DiffSide& side, const BatchSweepOptions& o, int64_t size,
                    BatchSweepRecord* sweep) {
  SetWorkerBreadcrumb("loading " + o.model_path);
  StatusOr<std::unique_ptr<LoadedModel>> loaded =
      LoadOnRuntime(*side.runtime, o.model_path, side.load);
  if (!loaded.ok()) return loaded.status().WithContext(side.label + ": loading " + o.model_path);
  const LoadedModel& model = **loaded;
  const std::vector<ValueInfo> inputs = model.inputs();
  const std::vector<ValueInfo> outputs = model.outputs();
  for (const ValueInfo& out : outputs) {
    if (AxisOf(out, o.dim) < 0) sweep->not_compared.push_back(out.name);
  }
  const std::string at = o.dim + "=" + std::to_string(size);
  DimSizes dims = o.other_dims;
  dims[o.dim] = size;
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<NamedValue> feeds,
                            MakeModelFeeds(model, o.model_path, FeedSource{{}, dims, o.seed}));
  SetWorkerBreadcrumb("running " + o.model_path + " at " + at);
  StatusOr<std::vector<Value>> batched = model.Run(feeds);
  if (!batched.ok()) {  // a model that cannot run at this size: the breakage a sweep is for
    BatchRowCheck failed{size, -1, "", {}};
    failed.comparison.summary = "the run fails: " + batched.status().message();
    sweep->rows.push_back(std::move(failed));
    return OkStatus();
  }
  for (int64_t row = 0; row < size; ++row) {
    std::vector<NamedValue> row_feeds;
    for (size_t i = 0; i < feeds.size(); ++i) {
      const int axis = AxisOf(inputs[i], o.dim);
      if (axis < 0) {
        row_feeds.push_back(feeds[i]);
        continue;
      }
      StatusOr<Tensor> slice = SliceRow(feeds[i].value.tensor(), axis, row);
      if (!slice.ok()) {
        return slice.status().WithContext(o.model_path + ": input '" + inputs[i].name + "'");
      }
      row_feeds.push_back({feeds[i].name, Value::FromTensor(std::move(slice).value())});
    }
    SetWorkerBreadcrumb("running row " + std::to_string(row) + " of " + o.model_path + " at " + at +
                        " alone");
    StatusOr<std::vector<Value>> alone = model.Run(row_feeds);
    if (!alone.ok()) {
      BatchRowCheck failed{size, row, "", {}};
      failed.comparison.summary =
          "the run of the row alone (" + o.dim + "=1) fails: " + alone.status().message();
      sweep->rows.push_back(std::move(failed));
      continue;
    }
    for (size_t k = 0; k < outputs.size() && k < batched->size(); ++k) {
      const int axis = AxisOf(outputs[k], o.dim);
      if (axis < 0 || !(*batched)[k].is_tensor()) continue;
      StatusOr<Tensor> slice = SliceRow((*batched)[k].tensor(), axis, row);
      BatchRowCheck check{size, row, outputs[k].name, {}};
      if (!slice.ok()) {
        check.comparison.summary = slice.status().message();
      } else if (k >= alone->size()) {
        check.comparison.summary =
            "the run of the row alone returned no output '" + outputs[k].name + "'";
      } else {
        check.comparison =
            CompareValues(Value::FromTensor(std::move(slice).value()), (*alone)[k], o.tolerance);
      }
      sweep->rows.push_back(std::move(check));
    }
  }
  return OkStatus();
}

// The rows and unsplit outputs of a sweep's JSON (RenderBatchSweepJson) appended to `sweep`:
// how a size's step comes back from its worker. DataLoss for text that is not such JSON.
Status ReadSweepRows(const std::string& text, const std::string& source, BatchSweepRecord* sweep) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto garbled = [&source](const std::string& what) {
    return DataLoss(source + ": the worker's rows are garbled (" + what + ")");
  };
  if (!j.is_object()) return garbled("not a JSON object");
  auto rows = j.find("rows");
  auto unsplit = j.find("not_compared");
  if (rows == j.end() || !rows->is_array()) return garbled("no rows");
  if (unsplit == j.end() || !unsplit->is_array()) return garbled("no not_compared");
  for (const nlohmann::json& name : *unsplit) {
    if (!name.is_string()) return garbled("an output name that is not a string");
    if (std::find(sweep->not_compared.begin(), sweep->not_compared.end(),
                  name.get<std::string>()) == sweep->not_compared.end()) {
      sweep->not_compared.push_back(name.get<std::string>());
    }
  }
  for (const nlohmann::json& r : *rows) {
    if (!r.is_object()) return garbled("a row that is not an object");
    auto field = [&r](const char* key) { return r.find(key); };
    auto size = field("size"), row = field("row"), output = field("output"),
         passed = field("passed"), summary = field("summary"), abs = field("max_abs_error"),
         rel = field("max_rel_error");
    if (size == r.end() || !size->is_number_integer() || row == r.end() ||
        !row->is_number_integer() || output == r.end() || !output->is_string() ||
        passed == r.end() || !passed->is_boolean() || summary == r.end() || !summary->is_string()) {
      return garbled("a row without size, row, output, passed and summary");
    }
    BatchRowCheck check{size->get<int64_t>(), row->get<int64_t>(), output->get<std::string>(), {}};
    check.comparison.passed = passed->get<bool>();
    check.comparison.summary = summary->get<std::string>();
    // nlohmann writes inf and NaN as null: an error that large reads back as infinity.
    const double huge = std::numeric_limits<double>::infinity();
    check.comparison.max_abs_error = abs != r.end() && abs->is_number() ? abs->get<double>() : huge;
    check.comparison.max_rel_error = rel != r.end() && rel->is_number() ? rel->get<double>() : huge;
    sweep->rows.push_back(std::move(check));
  }
  return OkStatus();
}

}  // namespace

StatusOr<BatchSweepRecord> SweepBatch(const DiffSide& side, const BatchSweepOptions& o) {
  BatchSweepRecord sweep;
  sweep.model_path = o.model_path;
  sweep.label = side.label;
  sweep.dim = o.dim;
  sweep.sizes = o.sizes;
  sweep.tolerance = o.tolerance;
  ModelWorker worker(o.worker, {side.runtime});
  for (int64_t size : o.sizes) {
    const std::string what =
        o.model_path + ": the run at " + o.dim + "=" + std::to_string(size) + " on " + side.label;
    StatusOr<std::string> rows = worker.RunText(what, [&]() -> StatusOr<std::string> {
      BatchSweepRecord part = sweep;
      part.rows.clear();
      part.not_compared.clear();
      ONNXGATE_RETURN_IF_ERROR(SweepOneSize(side, o, size, &part));
      return RenderBatchSweepJson(part);
    });
    if (!rows.ok() && worker.last_step_died() && !StopRequested()) {
      // A crash or hang at a size fails that size, as a run that fails there does.
      BatchRowCheck failed{size, -1, "", {}};
      failed.comparison.passed = false;
      failed.comparison.summary = rows.status().message();
      sweep.rows.push_back(std::move(failed));
      continue;
    }
    if (!rows.ok()) return rows.status();
    ONNXGATE_RETURN_IF_ERROR(ReadSweepRows(*rows, what, &sweep));
  }
  return sweep;
}

std::string RenderBatchSweepText(const BatchSweepRecord& sweep) {
  const bool by_row = sweep.reference.empty();
  const std::string dim = EscapeForTerminal(sweep.dim);
  std::ostringstream out;
  out << "model      " << EscapeForTerminal(sweep.model_path) << "\n";
  out << "runtime    " << EscapeForTerminal(sweep.label) << "\n";
  out << "sweep      " << dim << " =";
  for (int64_t s : sweep.sizes) out << " " << s;
  if (by_row) {
    out << ", each row against the run of that row alone";
  } else {
    out << ", each size against the run at that size on " << EscapeForTerminal(sweep.reference);
  }
  out << " (" << sweep.tolerance.ToString() << ")\n";
  for (const std::string& name : sweep.not_compared) {
    out << "  not compared: output " << EscapeForTerminal(name) << " has no dimension " << dim
        << "\n";
  }
  int failed = 0;
  for (const BatchRowCheck& r : sweep.rows) {
    if (r.comparison.passed) continue;
    ++failed;
    out << "  DIFFERS " << dim << "=" << r.size;
    if (r.row >= 0) out << " row " << r.row;
    if (!r.output.empty()) out << " output " << EscapeForTerminal(r.output);
    out << ": " << EscapeForTerminal(r.comparison.summary) << "\n";
  }
  out << sweep.rows.size() - failed << " of " << sweep.rows.size()
      << (by_row ? " row outputs match\n" : " outputs match\n");
  if (by_row) {
    out << (sweep.passed() ? "SAME: every size of " + dim + " gives each row its own result\n"
                           : "DIFFERENT: some size of " + dim + " changes a row's result\n");
  } else {
    out << (sweep.passed() ? "SAME: every size of " + dim + " gives the reference's result\n"
                           : "DIFFERENT: some size of " + dim + " gives another result than " +
                                 EscapeForTerminal(sweep.reference) + "\n");
  }
  return out.str();
}

std::string RenderBatchSweepJson(const BatchSweepRecord& sweep) {
  using Json = nlohmann::ordered_json;
  Json rows = Json::array();
  for (const BatchRowCheck& r : sweep.rows) {
    rows.push_back({{"size", r.size},
                    {"row", r.row},
                    {"output", r.output},
                    {"passed", r.comparison.passed},
                    {"max_abs_error", r.comparison.max_abs_error},
                    {"max_rel_error", r.comparison.max_rel_error},
                    {"summary", r.comparison.summary}});
  }
  Json j = {{"model", sweep.model_path},
            {"runtime", sweep.label},
            {"check", sweep.reference.empty() ? "rows" : "reference"},
            {"reference", sweep.reference},
            {"dim", sweep.dim},
            {"sizes", sweep.sizes},
            {"tolerance", {{"rtol", sweep.tolerance.rtol}, {"atol", sweep.tolerance.atol}}},
            {"passed", sweep.passed()},
            {"not_compared", sweep.not_compared},
            {"rows", rows}};
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace onnxgate
