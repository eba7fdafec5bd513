#include "ui/widgets/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

#include "ui/widgets/chart_util.h"
#include "ui/widgets/palette_icon_style.h"

namespace skynnet::ui {
namespace {

struct SystemLook {
    QString style;
    QPalette palette;
};

// The look the application started with, taken before the first change.
const SystemLook& systemLook() {
    static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

Theme& current() {
    static Theme theme = Theme::System;
    return theme;
}

QPalette darkPaletteColours() {
    const QColor window(45, 45, 48), base(30, 30, 32), text(230, 230, 230), disabled(125, 125, 125);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 43));
    p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(55, 55, 58));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 110, 100));
    p.setColor(QPalette::Light, QColor(80, 80, 84));
    p.setColor(QPalette::Midlight, QColor(66, 66, 70));
    p.setColor(QPalette::Mid, QColor(38, 38, 40));
    p.setColor(QPalette::Dark, QColor(25, 25, 27));
    p.setColor(QPalette::Shadow, QColor(10, 10, 10));
    p.setColor(QPalette::Highlight, QColor(42, 110, 200));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(100, 165, 255));
    p.setColor(QPalette::LinkVisited, QColor(170, 140, 255));
    for (QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(70, 70, 74));
    return p;
}

// A widget with a style sheet of its own keeps the palette it was polished with: the start page's
// buttons stayed light in the dark theme. Setting the sheet again polishes it with the new one.
void repolishStyleSheets() {
    for (QWidget* w : QApplication::allWidgets()) {
        const QString sheet = w->styleSheet();
        if (sheet.isEmpty()) continue;
        w->setStyleSheet(QString());
        w->setStyleSheet(sheet);
    }
}

}  // namespace

void applyTheme(Theme theme) {
    const SystemLook& system = systemLook();  // taken before anything changes
    // The first call installs the style whose icons follow the palette, even for the theme in force.
    const bool installed = dynamic_cast<const PaletteIconStyle*>(QApplication::style()) != nullptr;
    if (theme == current() && installed) return;
    current() = theme;
    QApplication::setStyle(new PaletteIconStyle(theme == Theme::System ? system.style : QStringLiteral("Fusion")));
    if (theme == Theme::System) QApplication::setPalette(system.palette);
    else
        QApplication::setPalette(theme == Theme::Dark ? darkPaletteColours()
                                                      : QApplication::style()->standardPalette());
    repolishStyleSheets();
    restyleAllCharts();
}

Theme appliedTheme() { return current(); }

}  // namespace skynnet::ui
