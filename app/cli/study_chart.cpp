#include "study_chart.h"

#include <QBuffer>
#include <QByteArray>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "core/error.h"
#include "io/atomic_file.h"

namespace skynnet::cli {
namespace {

// Qt's own notes (no XDG_RUNTIME_DIR, font fallbacks) are not the study's business; a chart that
// cannot be written fails through the PNG encoder instead.
void quietQt(QtMsgType, const QMessageLogContext&, const QString&) {}

// Text needs fonts, and fonts need a QGuiApplication; the offscreen platform needs no display.
std::unique_ptr<QGuiApplication> guiForFonts() {
    if (QCoreApplication::instance()) return nullptr;
    static int argc = 3;
    static char name[] = "skynnet-cli", platform[] = "-platform", offscreen[] = "offscreen";
    static char* argv[] = {name, platform, offscreen, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

struct Range {
    double low = 0, high = 1;
    void include(double v) {
        low = std::min(low, v);
        high = std::max(high, v);
    }
    // A little room around the points, and never an empty span.
    void pad() {
        double span = high - low;
        if (span <= 0) span = std::max(std::fabs(high), 1.0) * 0.1;
        low -= span * 0.08;
        high += span * 0.08;
    }
};

QString number(double v, int decimals) { return QString::number(v, 'f', decimals); }

constexpr int width = 960, height = 640, left = 90, right = 30, top = 50, bottom = 70;

// The plot's area and the data ranges it maps onto it.
struct Frame {
    Range x{1e300, -1e300}, y{1e300, -1e300};
    QRectF plot{left, top, width - left - right, height - top - bottom};
    double px(double v) const { return plot.left() + (v - x.low) / (x.high - x.low) * plot.width(); }
    double py(double v) const { return plot.bottom() - (v - y.low) / (y.high - y.low) * plot.height(); }
};

Frame frameFor(const StudySummary& s) {
    Frame f;
    for (const ConfigSummary& c : s.configs) {
        const double dx = c.wallStdDev.value_or(0), dy = c.metricStdDev.value_or(0);
        f.x.include(c.wallSeconds - dx);
        f.x.include(c.wallSeconds + dx);
        f.y.include(c.metricMean - dy);
        f.y.include(c.metricMean + dy);
    }
    if (s.configs.empty()) f.x = f.y = Range{};
    f.x.include(0);
    f.x.pad();
    f.x.low = 0;  // times start at zero
    f.y.pad();
    return f;
}

// The original's seed noise: mean +- one standard deviation, the band the recommendation uses.
void drawNoiseBand(QPainter& p, const Frame& f, const StudySummary& s) {
    if (!s.originalMean) return;
    const double sd = s.originalStdDev.value_or(0);
    p.fillRect(QRectF(QPointF(f.plot.left(), f.py(*s.originalMean + sd)),
                      QPointF(f.plot.right(), f.py(*s.originalMean - sd))),
               QColor(255, 200, 120, 90));
    p.setPen(QPen(QColor(200, 110, 0), 1, Qt::DashLine));
    p.drawLine(QPointF(f.plot.left(), f.py(*s.originalMean)), QPointF(f.plot.right(), f.py(*s.originalMean)));
}

void drawAxes(QPainter& p, const Frame& f, const StudySummary& s) {
    // Enough decimals that neighbouring ticks differ: a span of 0.2 s needs 3, of 200 s none.
    const auto decimalsFor = [](const Range& r) {
        return std::clamp(2 - int(std::floor(std::log10(std::max(r.high - r.low, 1e-12)))), 0, 8);
    };
    const int xDecimals = decimalsFor(f.x), yDecimals = decimalsFor(f.y) + 1;
    const QRectF& plot = f.plot;
    p.setPen(QPen(Qt::black, 1));
    p.drawRect(plot);
    for (int i = 0; i <= 5; ++i) {
        const double vx = f.x.low + (f.x.high - f.x.low) * i / 5, vy = f.y.low + (f.y.high - f.y.low) * i / 5;
        p.drawLine(QPointF(f.px(vx), plot.bottom()), QPointF(f.px(vx), plot.bottom() + 5));
        p.drawText(QRectF(f.px(vx) - 40, plot.bottom() + 8, 80, 18), Qt::AlignHCenter, number(vx, xDecimals));
        p.drawLine(QPointF(plot.left() - 5, f.py(vy)), QPointF(plot.left(), f.py(vy)));
        p.drawText(QRectF(plot.left() - 85, f.py(vy) - 9, 78, 18), Qt::AlignRight | Qt::AlignVCenter,
                   number(vy, yDecimals));
    }
    p.drawText(QRectF(plot.left(), height - 30, plot.width(), 20), Qt::AlignHCenter,
               "mean wall time of a run (s), bars: one standard deviation over the seeds");
    p.save();
    p.translate(18, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -10, plot.height(), 20), Qt::AlignHCenter,
               QString::fromStdString("test " + s.metricName + " (mean over the seeds)"));
    p.restore();
    p.drawText(QRectF(left, 12, plot.width(), 24), Qt::AlignLeft | Qt::AlignVCenter,
               "Split study: metric against time; the original (N=1) in orange, its seed noise shaded");
}

// One configuration: its point (the original a diamond), error bars and name.
void drawConfig(QPainter& p, const Frame& f, const ConfigSummary& c) {
    const QPointF at(f.px(c.wallSeconds), f.py(c.metricMean));
    const QColor colour = c.config.original()        ? QColor(220, 110, 0)
                          : c.strategy == "ensemble" ? QColor(90, 90, 90)
                                                     : QColor(30, 90, 200);
    p.setPen(QPen(colour, 1.5));
    if (c.metricStdDev) {
        const double dy = *c.metricStdDev;
        p.drawLine(QPointF(at.x(), f.py(c.metricMean - dy)), QPointF(at.x(), f.py(c.metricMean + dy)));
        p.drawLine(QPointF(at.x() - 4, f.py(c.metricMean - dy)), QPointF(at.x() + 4, f.py(c.metricMean - dy)));
        p.drawLine(QPointF(at.x() - 4, f.py(c.metricMean + dy)), QPointF(at.x() + 4, f.py(c.metricMean + dy)));
    }
    if (c.wallStdDev) {
        const double dx = *c.wallStdDev;
        p.drawLine(QPointF(f.px(c.wallSeconds - dx), at.y()), QPointF(f.px(c.wallSeconds + dx), at.y()));
    }
    p.setBrush(colour);
    if (c.config.original()) {
        QPainterPath diamond;
        diamond.moveTo(at + QPointF(0, -8));
        diamond.lineTo(at + QPointF(8, 0));
        diamond.lineTo(at + QPointF(0, 8));
        diamond.lineTo(at + QPointF(-8, 0));
        diamond.closeSubpath();
        p.drawPath(diamond);
    } else {
        p.drawEllipse(at, 5, 5);
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(Qt::black);
    p.drawText(at + QPointF(9, -7), QString::fromStdString(c.config.original() ? "original (N1)" : c.config.name()));
}

}  // namespace

void writeStudyChart(const std::string& path, const StudySummary& s) {
    const QtMessageHandler previous = qInstallMessageHandler(quietQt);
    struct Restore {
        QtMessageHandler handler;
        ~Restore() { qInstallMessageHandler(handler); }
    } restore{previous};
    const std::unique_ptr<QGuiApplication> app = guiForFonts();
    QImage image(width, height, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        QFont font = p.font();
        font.setPixelSize(13);
        p.setFont(font);
        const Frame frame = frameFor(s);
        drawNoiseBand(p, frame, s);
        drawAxes(p, frame, s);
        for (const ConfigSummary& c : s.configs) drawConfig(p, frame, c);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) throw Error("cannot save " + path + ": the PNG encoder failed");
    writeFileAtomically(path, std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

}  // namespace skynnet::cli
