#include "ui/widgets/help_window.h"

#include <QFile>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/widgets/fit_to_screen.h"

// At global scope, as Q_INIT_RESOURCE requires: the manual lives in a static library, whose
// resource initialiser the linker would drop unless something calls it.
static void initHelpResources() { Q_INIT_RESOURCE(help); }

namespace skynnet::ui {

QString HelpWindow::manualUrl() { return QStringLiteral("qrc:/help/manual.html"); }

QString HelpWindow::manualHtml() {
    initHelpResources();
    QFile file(QStringLiteral(":/help/manual.html"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(file.readAll());
}

HelpWindow::HelpWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
    initHelpResources();
    setWindowTitle(tr("Skynnet Manual"));
    browser_ = new QTextBrowser;
    browser_->setObjectName(QStringLiteral("manual"));
    browser_->setOpenExternalLinks(true);
    browser_->setSource(QUrl(manualUrl()));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(browser_);
    resize(760, 820);
    fitToScreen(this);  // 820 pixels are more than a 768-pixel laptop screen has
}

}  // namespace skynnet::ui
