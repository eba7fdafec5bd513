#pragma once
// Background work below the GUI thread's priority. Training keeps every core busy; at equal
// priority the scheduler then lets the GUI thread wait tens of milliseconds for a core each time
// it wakes (measured with skynnet-gui-stall-bench), so the window stutters although its own work
// per event is a few milliseconds. A lower priority costs the training nothing on an otherwise
// idle machine: it still gets every cycle the GUI does not use.
namespace skynnet::ui {

// Lowers the calling thread's scheduling priority (Linux: nice +5); threads it starts afterwards
// inherit it. Irreversible without privileges, so only for threads the caller owns and ends, never
// for a shared pool thread. Does nothing where not supported.
void lowerCurrentThreadPriority();

}  // namespace skynnet::ui
