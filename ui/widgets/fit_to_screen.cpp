#include "ui/widgets/fit_to_screen.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace skynnet::ui {

void fitToScreen(QWidget* window) {
    const QScreen* s = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!s) return;
    // A window manager adds the title bar and borders outside this size: leave room for them.
    constexpr int frameAllowance = 40;
    const QRect room = s->availableGeometry();
    window->resize(window->size().boundedTo(QSize(room.width(), room.height() - frameAllowance)));
}

}  // namespace skynnet::ui
