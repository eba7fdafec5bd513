#pragma once
// A top-level window no larger than the screen it is on, title bar and borders included, so that
// nothing of it is out of reach on a laptop's screen.
class QWidget;

namespace skynnet::ui {

void fitToScreen(QWidget* window);

}  // namespace skynnet::ui
