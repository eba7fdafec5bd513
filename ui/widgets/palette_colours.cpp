#include "ui/widgets/palette_colours.h"

#include <QApplication>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace skynnet::ui {
namespace {

// WCAG 2's relative luminance: each sRGB channel made linear, weighted as the eye weighs them.
double relativeLuminance(const QColor& c) {
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

}  // namespace

bool darkPalette() { return QApplication::palette().color(QPalette::Window).lightness() < 128; }

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor blend(const QColor& from, const QColor& to, double amount) {
    const auto mix = [amount](int a, int b) { return int(std::lround(a + (b - a) * amount)); };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()), mix(from.blue(), to.blue()));
}

QColor readableTextOn(const QColor& background) {
    const QColor black(Qt::black), white(Qt::white);
    return contrastRatio(background, black) >= contrastRatio(background, white) ? black : white;
}

}  // namespace skynnet::ui
