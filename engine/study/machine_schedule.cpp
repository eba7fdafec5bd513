#include "study/machine_schedule.h"

#include <string>

#include "core/error.h"
#include "split/plan_totals.h"

namespace skynnet {

double machinesSeconds(const std::vector<double>& submodelSeconds, int machines) {
    // No clamp: K < 1 is refused, not read as one machine. Both front ends ask for K >= 1 already
    // (--machines takes a positive integer, the page's spin box starts at 1), so a smaller K is a
    // caller's mistake, and "on 0 machines" has no time to give; answering with one machine's
    // time would print a figure that nobody asked for. (The app's copy clamped to 1; the CLI's
    // read an empty queue.)
    if (machines < 1) throw Error("machinesSeconds: at least 1 machine, got " + std::to_string(machines));
    return longestFirstMakespan(submodelSeconds, machines);  // the Split page's totals' rule too
}

}  // namespace skynnet
