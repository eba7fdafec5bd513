#pragma once
// The application's look for View > Theme: the platform's own palette, or the app's light or dark
// one (on the Fusion style, which honours a palette everywhere), and the charts and the style's
// icons following it.
#include "ui/core/app_settings.h"
#include "ui/widgets/palette_colours.h"  // the colours that follow the theme, for its users

namespace skynnet::ui {

// Sets the palette (and style) of the whole application, then restyles every chart shown.
void applyTheme(Theme theme);
Theme appliedTheme();  // System until applyTheme() chose another

}  // namespace skynnet::ui
