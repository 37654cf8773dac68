// One run's report from the reports of its shards (`onnxgate merge`): the shards of one run
// (--shard-index/--shard-count, or a CI system's shard variables) each wrote a JSON report; the
// merged report holds every case of them all, with its totals, conformance matrix and operator
// coverage computed again, as the unsharded run would have written them.
#pragma once

#include <string>
#include <vector>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Merges the shard reports (read from `paths`, in that order, for messages). The shards of a gate
// give the merged report a gate outcome judged again over all the cases (`strict`: an expected
// failure that passed fails it, as gate without --no-strict), with the first shard's
// expectations files. InvalidArgument
// naming the two files and what differs when they are not shards of one run: a different tool
// version, runtime(s), suites, EP selection, filter or shard count; the same shard twice; or an
// isolation mode that differs. A report of an unsharded run merges with nothing but itself
// alone. Cases come out in suite order, then by name and target; a shard that was interrupted
// makes the merged report interrupted, with its cases not run listed.
StatusOr<RunRecord> MergeShardReports(const std::vector<RunRecord>& shards,
                                      const std::vector<std::string>& paths, bool strict = true);

}  // namespace onnxgate
