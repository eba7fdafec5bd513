#pragma once
// The application's look for View > Theme: the platform's own palette, or the app's light or dark
// one (on the Fusion style, which honours a palette everywhere), and the charts following it.
#include "ui/core/app_settings.h"

namespace skynnet::ui {

// Sets the palette (and style) of the whole application, then restyles every chart shown.
void applyTheme(Theme theme);
Theme appliedTheme();  // System until applyTheme() chose another
// Whether the application's palette is a dark one (whatever chose it), for colours drawn by hand.
bool darkPalette();

}  // namespace skynnet::ui
