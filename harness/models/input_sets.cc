// Data sets of given inputs and their expected-outputs files (see input_sets.h).
#include "harness/models/input_sets.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "harness/models/npz_reader.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// Name order with runs of digits compared as numbers: input_2.pb before input_10.pb.
bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = a.find_first_not_of("0123456789", i), je = b.find_first_not_of("0123456789", j);
      if (ie == std::string::npos) ie = a.size();
      if (je == std::string::npos) je = b.size();
      std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
      x.erase(0, std::min(x.find_first_not_of('0'), x.size() - 1));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size() - 1));
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// The last component of `path`, also when it ends in a separator ("sets/a/" -> "a").
std::string BaseName(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

// A folder of .pb files as one set: its .pb files but output_*.pb, nothing else in it.
StatusOr<InputSet> FolderSet(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("output_", 0) == 0 && EndsWith(name, ".pb")) continue;
    if (!EndsWith(name, ".pb") || !entry.is_regular_file(ec)) {
      return InvalidArgument(entry.path().string() +
                             ": a folder of inputs holds only TensorProto .pb files (and ONNX's "
                             "output_*.pb, which are not read)");
    }
    names.push_back(name);
  }
  if (ec) return InvalidArgument(dir + ": cannot list the folder: " + ec.message());
  if (names.empty()) return InvalidArgument(dir + ": a folder of inputs with no .pb input files");
  std::sort(names.begin(), names.end(), NaturalLess);
  InputSet set{BaseName(dir), dir, {}};
  for (const std::string& name : names) set.files.push_back((fs::path(dir) / name).string());
  return set;
}

// One --input or --inputs-dir entry that is a set of its own: an .npz file or a folder.
StatusOr<InputSet> SetOfPath(const std::string& path) {
  if (IsDirectory(path)) return FolderSet(path);
  if (!EndsWith(path, ".npz")) {
    return InvalidArgument(path +
                           ": a data set is a NumPy .npz or a folder of TensorProto .pb files");
  }
  return InputSet{fs::path(path).stem().string(), path, {path}};
}

// The sets of --inputs-dir: its .npz files and folders, in name order.
StatusOr<std::vector<InputSet>> SetsOfDir(const std::string& dir) {
  if (!IsDirectory(dir)) return InvalidArgument("--inputs-dir " + dir + ": not a folder");
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.front() == '.') continue;
    if (!entry.is_directory(ec) && !EndsWith(name, ".npz")) {
      return InvalidArgument(entry.path().string() +
                             ": an --inputs-dir holds data sets, each an .npz or a folder of "
                             "TensorProto .pb files");
    }
    names.push_back(name);
  }
  if (ec) return InvalidArgument(dir + ": cannot list the folder: " + ec.message());
  if (names.empty()) return InvalidArgument("--inputs-dir " + dir + ": holds no data sets");
  std::sort(names.begin(), names.end(), NaturalLess);
  std::vector<InputSet> sets;
  for (const std::string& name : names) {
    ONNXGATE_ASSIGN_OR_RETURN(InputSet set, SetOfPath((fs::path(dir) / name).string()));
    sets.push_back(std::move(set));
  }
  return sets;
}

// The input names one set gives, sorted.
StatusOr<std::vector<std::string>> InputNamesOf(const InputSet& set,
                                                const std::vector<std::string>& model_inputs) {
  std::vector<std::string> names;
  if (set.files.size() == 1 && EndsWith(set.files[0], ".npz")) {
    // Nothing wanted: every array is listed as unread, none inflated.
    ONNXGATE_ASSIGN_OR_RETURN(NpzArrays listed,
                              ReadNpzFile(set.files[0], NpzRequest{std::set<std::string>{}}));
    names = listed.unread;
  } else {
    for (size_t i = 0; i < set.files.size(); ++i) {
      ONNXGATE_ASSIGN_OR_RETURN(
          std::string bytes,
          ReadRegularFile(set.files[i], kMaxProtobufFileBytes, "TensorProto file"));
      onnx::TensorProto proto;
      if (!proto.ParseFromString(bytes)) {
        return InvalidArgument(set.files[i] + ": not a serialized ONNX TensorProto");
      }
      names.push_back(!proto.name().empty()     ? proto.name()
                      : i < model_inputs.size() ? model_inputs[i]
                                                : "#" + std::to_string(i));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text.empty() ? "none" : text;
}

}  // namespace

StatusOr<std::vector<InputSet>> InputSetsOf(const std::vector<std::string>& inputs,
                                            const std::string& inputs_dir) {
  std::vector<InputSet> sets;
  InputSet loose{"inputs", "", {}};
  for (const std::string& path : inputs) {
    if (EndsWith(path, ".pb") && !IsDirectory(path)) {
      loose.files.push_back(path);
      loose.shown += (loose.shown.empty() ? "" : " ") + path;
      continue;
    }
    ONNXGATE_ASSIGN_OR_RETURN(InputSet set, SetOfPath(path));
    sets.push_back(std::move(set));
  }
  if (!inputs_dir.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<InputSet> in_dir, SetsOfDir(inputs_dir));
    for (InputSet& set : in_dir) sets.push_back(std::move(set));
  }
  if (!loose.files.empty()) {
    if (!sets.empty()) {
      return InvalidArgument(loose.files.front() +
                             ": .pb files given to --input make one data set; with several sets "
                             "give each set's .pb files as a folder");
    }
    sets.push_back(std::move(loose));
  }
  return sets;
}

std::string SetLabel(size_t index, const InputSet& set) {
  return "data set " + std::to_string(index) + " (" + set.shown + ")";
}

Status CheckSameInputNames(const std::vector<InputSet>& sets,
                           const std::vector<std::string>& model_inputs) {
  std::vector<std::string> first;
  for (size_t s = 0; s < sets.size(); ++s) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> names, InputNamesOf(sets[s], model_inputs));
    if (s == 0) {
      first = std::move(names);
    } else if (names != first) {
      return InvalidArgument(SetLabel(s, sets[s]) + " gives the inputs " + JoinNames(names) + ", " +
                             SetLabel(0, sets[0]) + " gives " + JoinNames(first) +
                             ": every data set of a dataset gives the same inputs");
    }
  }
  return OkStatus();
}

StatusOr<std::vector<std::string>> PairExpectedFiles(const std::vector<InputSet>& sets,
                                                     const std::vector<std::string>& expected,
                                                     const std::string& expected_dir) {
  if (expected_dir.empty()) {
    if (expected.size() != sets.size()) {
      return InvalidArgument(std::to_string(expected.size()) + " --expected file(s) for " +
                             std::to_string(sets.size()) +
                             " data set(s): give one per data set, in the order of the sets");
    }
    return expected;
  }
  if (!IsDirectory(expected_dir)) {
    return InvalidArgument("--expected-dir " + expected_dir + ": not a folder");
  }
  std::map<std::string, size_t> by_name;
  std::vector<std::string> files;
  for (size_t s = 0; s < sets.size(); ++s) {
    if (!by_name.emplace(sets[s].name, s).second) {
      return InvalidArgument(SetLabel(by_name[sets[s].name], sets[by_name[sets[s].name]]) +
                             " and " + SetLabel(s, sets[s]) + " are both named '" + sets[s].name +
                             "': --expected-dir pairs expected outputs with sets by name");
    }
    const std::string file = (fs::path(expected_dir) / (sets[s].name + ".npz")).string();
    std::error_code ec;
    if (!fs::exists(file, ec)) {
      return InvalidArgument(SetLabel(s, sets[s]) + ": no expected outputs " + file);
    }
    files.push_back(file);
  }
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(expected_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (EndsWith(name, ".npz") && !by_name.count(name.substr(0, name.size() - 4))) {
      std::vector<std::string> names;
      for (const InputSet& set : sets) names.push_back(set.name);
      return InvalidArgument(entry.path().string() +
                             ": expected outputs for no data set (the sets are named " +
                             JoinNames(names) + ")");
    }
  }
  if (ec) return InvalidArgument(expected_dir + ": cannot list the folder: " + ec.message());
  return files;
}

}  // namespace onnxgate
