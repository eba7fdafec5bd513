#pragma once
// What a look at the window needs, for the screenshot tour and the tests that picture or measure
// pages: let the event loop settle before a grab, and find the scroll area a page is shown in.
class QScrollArea;
class QWidget;

namespace skynnet::ui {

// Runs the event loop for `ms` milliseconds, so queued signals, layouts and chart repaints are
// done before a grab or a measurement.
void settleEvents(int ms);

// The scroll area the window shows its current page in: the visible one not inside another.
QScrollArea* pageScrollArea(QWidget* window);

}  // namespace skynnet::ui
