#pragma once
// Colours drawn by hand that follow the application's palette: whether it is dark, and WCAG
// contrast for text on a coloured background. Below theme.h, so that what the theme restyles
// (charts, the style's icons) can ask without including the theme back.
#include <QColor>

namespace skynnet::ui {

// Whether the application's palette is a dark one (whatever chose it), for colours drawn by hand.
bool darkPalette();

// The contrast between two colours as WCAG 2 defines it: from 1 (the same) to 21 (black on white);
// 4.5 or more reads as body text.
double contrastRatio(const QColor& a, const QColor& b);
// `from` moved `amount` (0..1) of the way to `to`, channel by channel: a tint of a hue over the
// palette's base, light on a light palette and dark on a dark one.
QColor blend(const QColor& from, const QColor& to, double amount);
// Black or white, whichever contrasts more with the background (at least 4.5 on any colour).
QColor readableTextOn(const QColor& background);

}  // namespace skynnet::ui
