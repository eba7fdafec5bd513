#include "ui/widgets/window_grab.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QThread>

namespace skynnet::ui {

void settleEvents(int ms) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(10);
    }
}

QScrollArea* pageScrollArea(QWidget* window) {
    for (QScrollArea* area : window->findChildren<QScrollArea*>()) {
        if (!area->isVisible()) continue;
        bool outermost = true;
        for (QWidget* w = area->parentWidget(); w && w != window && outermost; w = w->parentWidget())
            outermost = !qobject_cast<QScrollArea*>(w);
        if (outermost) return area;
    }
    return nullptr;
}

}  // namespace skynnet::ui
