#pragma once
// The machine schedule of a study: what a split's measured submodel times would take on K
// machines. One rule for every front end (skynnet-cli study's files and the app's Study page,
// which recomputes it when K changes).
#include <vector>

namespace skynnet {

// The time S submodels of these durations take on K = `machines` machines: the slowest when
// K >= S, otherwise a longest-first schedule (each next one to the machine free first). 0 for no
// submodels. Throws Error for machines < 1.
double machinesSeconds(const std::vector<double>& submodelSeconds, int machines);

}  // namespace skynnet
