// Test-only busy work of a calibrated size: `onnxgate bench --extra-work-percent P` adds P% of a
// run's time to every run, so the evidence script can show which slowdowns the regression
// detector flags and which it lets pass.
#pragma once

#include <cstdint>

namespace onnxgate {

// Does `units` steps of a dependent integer recurrence (xorshift) that the compiler can neither
// drop nor vectorize, so its time is proportional to `units` on a given core.
void RunBusyWork(int64_t units);

// Units of RunBusyWork per millisecond on this machine: the median of several timed trials, so
// one preempted trial does not skew it.
double BusyWorkUnitsPerMs();

}  // namespace onnxgate
