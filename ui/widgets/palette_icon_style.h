#pragma once
// The application's style with its standard icons following the palette: Fusion's (and most
// platforms') icons are dark lines and shapes that vanish on a dark background (the Train page's
// play button, the sidebar's). On a dark palette each icon is drawn with its lightness inverted,
// at paint time, so icons made before a theme change follow it too.
#include <QProxyStyle>

namespace skynnet::ui {

class PaletteIconStyle : public QProxyStyle {
public:
    // The style named as QStyleFactory names them ("Fusion"); the application's default if unknown.
    explicit PaletteIconStyle(const QString& baseStyle);

    QIcon standardIcon(StandardPixmap icon, const QStyleOption* option = nullptr,
                       const QWidget* widget = nullptr) const override;
};

// The picture with every pixel's lightness inverted (hue, saturation and alpha kept): black lines
// turn white, a white page dark, a green tick pale green.
QImage lightnessInverted(const QImage& image);

}  // namespace skynnet::ui
