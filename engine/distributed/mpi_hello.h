#pragma once
// The short MPI job of `skynnet-cli mpi-check`: every rank describes itself to rank 0, so a user
// (or the app's Check button) sees before a long run which hosts answer, with how many cores and
// which build.
#include <string>
#include <vector>

#include "io/json.h"

namespace skynnet {

class MpiSession;

// On rank 0: every rank's {"rank","host","cores","version","build"} in rank order; on the other
// ranks: empty (they have sent theirs).
std::vector<Json> mpiHello(MpiSession& session, const std::string& version);

}  // namespace skynnet
