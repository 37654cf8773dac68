// An expectations file rewritten from a run under its folder's lock (see expectations_update.h).
#include "conformance/expectations_update.h"

namespace onnxgate {

StatusOr<ExpectationsFileUpdate> UpdateExpectationsFile(const std::string& path,
                                                        const std::string& ep,
                                                        const std::vector<CaseRecord>& run,
                                                        std::chrono::milliseconds wait) {
  ONNXGATE_ASSIGN_OR_RETURN(FolderLock lock, LockFolderOf(path, wait));
  ExpectationsFileUpdate update;
  ONNXGATE_ASSIGN_OR_RETURN(update.before, LoadExpectationsOrEmpty(path, ep));
  update.after = UpdateExpectations(update.before, run);
  ONNXGATE_RETURN_IF_ERROR(WriteExpectations(path, update.after));
  return update;
}

}  // namespace onnxgate
