#pragma once
// Help > Manual: the short manual (resources/help/manual.html, compiled into the widgets library)
// in a window of its own, beside the main window rather than in front of it, with its contents
// links working and external links opened in the browser.
#include <QWidget>

class QTextBrowser;

namespace skynnet::ui {

class HelpWindow : public QWidget {
    Q_OBJECT
public:
    explicit HelpWindow(QWidget* parent = nullptr);

    QTextBrowser* browser() const { return browser_; }
    // The manual's HTML; empty only if the resource is missing from the build.
    static QString manualHtml();
    static QString manualUrl();  // "qrc:/help/manual.html"

private:
    QTextBrowser* browser_;
};

}  // namespace skynnet::ui
