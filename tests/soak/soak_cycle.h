#pragma once
// One soak cycle as a user of the app goes through it: open the project, change a setting (with
// undo and redo), train the split with a pause and a resume, stop it after a submodel's first
// epoch, continue it from its checkpoint ("Resume run"), autosave, save, export ONNX, reopen;
// each step checked. Every cycle starts from the same base project, so its file does not grow.
#include <QString>

#include "soak_fixture.h"

namespace soak {

// The soak's project, made once: built-in blobs data, three class-group submodels of a small MLP,
// saved as the base every cycle opens a copy of. Throws Failure.
void prepareBaseProject(Fixture& f);

// Opens `path` into the document and the session as the app opens a project. Throws Failure.
void openProject(Fixture& f, const QString& path);

// The project file the cycles work on.
QString projectPath(const Fixture& f);

// A whole cycle (number `cycle`, from 1); with `inject`, every few cycles also a full disk under a
// save or a killed training child (soak_inject.h). Throws Failure at the first check that fails.
void runCycle(Fixture& f, int cycle, bool inject);

// After a failed cycle: no run going, no save being written, nothing armed.
void recover(Fixture& f);

}  // namespace soak
