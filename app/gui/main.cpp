// The desktop application: options, the main window, and optionally the screenshot tour.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdio>
#include <memory>

#include "ui/core/app_settings.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/screenshot_tour.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Skynnet"));
    QApplication::setApplicationName(QStringLiteral("skynnet"));
    QApplication::setApplicationDisplayName(QStringLiteral("Skynnet"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Train neural networks by the Skynnet split method."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption data(QStringLiteral("data"), QStringLiteral("Open this data file (CSV/TSV, IDX, an image folder, or builtin:NAME) "
                                                                         "instead of the example."),
                                  QStringLiteral("PATH"));
    const QCommandLineOption example(QStringLiteral("example"),
                                     QStringLiteral("Open this example: fashion-mnist, spirals, blobs, sine, iris, wine, "
                                                    "breast_cancer."),
                                     QStringLiteral("NAME"));
    const QCommandLineOption shots(QStringList{QStringLiteral("screenshots"), QStringLiteral("screenshot-dir")},
                                   QStringLiteral("Save PNGs of every page before, during and after training into DIR, "
                                                  "then quit."),
                                   QStringLiteral("DIR"));
    const QCommandLineOption afterTrain(QStringLiteral("screenshot-after-train"),
                                        QStringLiteral("Accepted for compatibility: --screenshots always trains."));
    parser.addOptions({data, example, shots, afterTrain});
    parser.process(app);

    // Screenshots must look the same on every machine: no restored geometry, no recent files.
    std::unique_ptr<QTemporaryDir> scratch;
    std::unique_ptr<skynnet::ui::AppSettings> settings;
    if (parser.isSet(shots)) {
        scratch = std::make_unique<QTemporaryDir>();
        settings = std::make_unique<skynnet::ui::AppSettings>(scratch->filePath(QStringLiteral("settings.ini")));
    }
    skynnet::ui::MainWindow window(std::move(settings));
    if (parser.isSet(shots)) window.resize(1500, 940);
    window.show();

    if (parser.isSet(data)) {
        const QString path = parser.value(data);
        window.dataPage()->loadFile(path.startsWith(QLatin1String("builtin:")) ? path : QFileInfo(path).absoluteFilePath());
    } else if (parser.isSet(example)) {
        if (!window.openExample(parser.value(example))) {
            std::fprintf(stderr, "skynnet: unknown or unavailable example '%s'\n", qPrintable(parser.value(example)));
            return 2;
        }
    } else {
        window.openDefaultExample();
    }

    std::unique_ptr<skynnet::ui::ScreenshotTour> tour;
    if (parser.isSet(shots)) {
        tour = std::make_unique<skynnet::ui::ScreenshotTour>(&window, parser.value(shots));
        tour->start();
    }
    return QApplication::exec();
}
