#include "study/machine_schedule.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>

#include "core/error.h"

namespace skynnet {

double machinesSeconds(const std::vector<double>& submodelSeconds, int machines) {
    // No clamp: K < 1 is refused, not read as one machine. Both front ends ask for K >= 1 already
    // (--machines takes a positive integer, the page's spin box starts at 1), so a smaller K is a
    // caller's mistake, and "on 0 machines" has no time to give; answering with one machine's
    // time would print a figure that nobody asked for. (The app's copy clamped to 1; the CLI's
    // read an empty queue.)
    if (machines < 1) throw Error("machinesSeconds: at least 1 machine, got " + std::to_string(machines));
    if (submodelSeconds.empty()) return 0;
    std::vector<double> longestFirst = submodelSeconds;
    std::sort(longestFirst.begin(), longestFirst.end(), std::greater<>());
    if (machines >= int(longestFirst.size())) return longestFirst.front();
    // Each machine's busy time; the next submodel goes to the one free first.
    std::priority_queue<double, std::vector<double>, std::greater<>> busy;
    for (int k = 0; k < machines; ++k) busy.push(0.0);
    double end = 0;
    for (double s : longestFirst) {
        const double t = busy.top() + s;
        busy.pop();
        busy.push(t);
        end = std::max(end, t);
    }
    return end;
}

}  // namespace skynnet
