#include "ui/widgets/palette_icon_style.h"

#include <QApplication>
#include <QHash>
#include <QIconEngine>
#include <QImage>
#include <QPainter>
#include <QPixmap>

#include "ui/widgets/palette_colours.h"

namespace skynnet::ui {
namespace {

// Draws the style's own icon, inverted while the palette is dark.
class PaletteIconEngine : public QIconEngine {
public:
    explicit PaletteIconEngine(QIcon original) : original_(std::move(original)) {}

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        const QPixmap plain = original_.pixmap(size, mode, state);
        if (!darkPalette() || plain.isNull()) return plain;
        const QString key = QStringLiteral("%1x%2/%3/%4/%5")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(int(mode))
                                .arg(int(state))
                                .arg(plain.cacheKey());
        auto it = inverted_.find(key);
        if (it == inverted_.end()) {
            QPixmap p = QPixmap::fromImage(lightnessInverted(plain.toImage()));
            p.setDevicePixelRatio(plain.devicePixelRatio());
            it = inverted_.insert(key, p);
        }
        return *it;
    }

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State state) override {
        const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        painter->drawPixmap(rect, pixmap(rect.size() * ratio, mode, state));
    }

    QSize actualSize(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        return original_.actualSize(size, mode, state);
    }
    QList<QSize> availableSizes(QIcon::Mode mode, QIcon::State state) override {
        return original_.availableSizes(mode, state);
    }
    bool isNull() override { return original_.isNull(); }
    QIconEngine* clone() const override { return new PaletteIconEngine(original_); }

private:
    QIcon original_;
    QHash<QString, QPixmap> inverted_;
};

}  // namespace

PaletteIconStyle::PaletteIconStyle(const QString& baseStyle) : QProxyStyle(baseStyle) {}

QIcon PaletteIconStyle::standardIcon(StandardPixmap icon, const QStyleOption* option, const QWidget* widget) const {
    const QIcon original = QProxyStyle::standardIcon(icon, option, widget);
    return original.isNull() ? original : QIcon(new PaletteIconEngine(original));
}

QImage lightnessInverted(const QImage& image) {
    QImage out = image.convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < out.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            if (qAlpha(line[x]) == 0) continue;
            const QColor c = QColor::fromRgba(line[x]);
            line[x] = QColor::fromHsl(c.hslHue(), c.hslSaturation(), 255 - c.lightness(), c.alpha()).rgba();
        }
    }
    return out;
}

}  // namespace skynnet::ui
