#pragma once
// --inject: failures the app must survive, each followed by checks that nothing was lost.
//  (a) A full disk under a save: the project is saved on a small tmpfs the soak mounts (it must
//      run as root; otherwise the engine's save seam, io/file_faults.h, fails the writes with
//      ENOSPC instead), the disk is filled, the document changed and saved again. The save must
//      fail with an error naming the file and the full disk, and the previous file must be
//      byte-identical, open, and have no temporary file beside it.
//  (b) A killed training child: the app trains in threads, so the child is its other path, the run
//      in another process (TrainingSession::startCommand with skynnet-cli train --project COPY
//      --progress json, as for a hostfile run, here with the thread backend). It is killed with
//      SIGKILL a random 0-50 ms after its first epoch shows; the run must end Failed with a
//      message, the project file and the copy must be intact, and skynnet-cli --resume from the
//      copy's checkpoint must complete the run.
#include "soak_fixture.h"

namespace soak {

// A cycle number c with c % injectEvery == 1 has (a), == 3 has (b).
inline constexpr int injectEvery = 4;

// Mounts the tmpfs for (a) under the soak's folder; false (and the seam is used) when it cannot.
bool mountSmallDisk(Fixture& f);
void unmountSmallDisk(Fixture& f);

void injectFullDisk(Fixture& f);     // throws Failure
void injectKilledChild(Fixture& f);  // throws Failure

// Undoes what an injection left after a failed check: the filler file, the seam.
void clearInjections(Fixture& f);

}  // namespace soak
