#pragma once
// A test-only seam in AtomicFileWriter: a hook called before each system call of a save, which
// can make that call fail with an errno of its choice (ENOSPC for a full disk, EIO for a failing
// one) or stop the process right there, so tests can show that every failure leaves the previous
// file whole. Unset (always, outside tests) it costs one relaxed atomic load per call and changes
// nothing.

#include <cstddef>

namespace skynnet {

// The system calls of one save, in order. CopyPermissions runs only when the target exists; Write
// runs once per piece (AtomicFileWriter writes at most 1 MiB per call).
enum class SaveStep {
    CreateTemp,       // open(O_CREAT | O_EXCL) of the temporary file beside the target
    CopyPermissions,  // fchmod to the replaced file's mode
    Write,
    Sync,  // fsync of the temporary file
    Close,
    Rename,         // over the target: from here on the new file is in place
    OpenDirectory,  // then fsync of the directory, to make the rename durable
    SyncDirectory,
};

const char* saveStepName(SaveStep step);

// `index` counts the writes of one save from 0 (0 for the other steps); `target` is the file the
// save replaces. Returns 0 to let the call run, or the errno it fails with instead.
using SaveFaultHook = int (*)(SaveStep step, int index, const char* target);

// Process-wide; nullptr removes it. For tests only.
void setSaveFaultHook(SaveFaultHook hook);

// The largest piece one Write step writes (0 restores the 1 MiB default). Smaller pieces give a
// test more distinct moments to fail or stop a save of a small file. For tests only.
void setSaveWritePieceBytes(std::size_t bytes);

}  // namespace skynnet
