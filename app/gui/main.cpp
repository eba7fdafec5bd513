// The desktop application: options, the main window, and optionally the screenshot tour.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QScreen>
#include <QTemporaryDir>
#include <cstdio>
#include <memory>

#include "spec/network_spec.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
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
    const QCommandLineOption data(QStringLiteral("data"), QStringLiteral("Open this data file (CSV/TSV, IDX, an image folder, or builtin:NAME)."),
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
    const QCommandLineOption layers(QStringLiteral("layers"),
                                    QStringLiteral("Design these hidden layers once the data is open, as skynnet-cli's "
                                                   "--layers (e.g. conv:32:3x3:relu,maxpool:2,flatten,dense:128:relu)."),
                                    QStringLiteral("SPEC"));
    const QCommandLineOption epochs(QStringLiteral("epochs"), QStringLiteral("Train this many epochs (once the data is open)."),
                                    QStringLiteral("N"));
    const QCommandLineOption shotSize(QStringLiteral("screenshot-size"),
                                      QStringLiteral("Window size of --screenshots, WIDTHxHEIGHT (default 1500x940)."),
                                      QStringLiteral("WxH"));
    const QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Open this project (.skynnet)."),
                                  QStringLiteral("PROJECT"));
    const QCommandLineOption saveProject(QStringLiteral("save-project"),
                                         QStringLiteral("When a run ends, save the project to this file (with --screenshots)."),
                                         QStringLiteral("PROJECT"));
    const QCommandLineOption hosts(QStringLiteral("hosts"),
                                   QStringLiteral("Run the training on the machines of this Open MPI hostfile (once the data "
                                                  "is open), as the Train page's Run on does."),
                                   QStringLiteral("HOSTFILE"));
    const QCommandLineOption ranks(QStringLiteral("ranks"), QStringLiteral("MPI ranks of a --hosts run (default 3)."),
                                   QStringLiteral("K"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("Show the app in this theme: system, light or dark (for this run only)."),
                                   QStringLiteral("NAME"));
    parser.addOptions({data, example, shots, afterTrain, layers, epochs, shotSize, open, saveProject, hosts, ranks, theme});
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("A project (.skynnet), a model file (.skym) or data to open (as --data). "
                                                "Without FILE, --open, --data or --example the start page opens, or with "
                                                "--screenshots the ready example."),
                                 QStringLiteral("[FILE]"));
    parser.process(app);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "skynnet: give one FILE to open, not %d\n", int(positional.size()));
        return 2;
    }
    const QString fileArg = positional.isEmpty() ? QString() : positional.front();
    if (!fileArg.isEmpty() && (parser.isSet(open) || parser.isSet(data) || parser.isSet(example))) {
        std::fprintf(stderr, "skynnet: FILE and --open, --data or --example: give only one thing to open\n");
        return 2;
    }
    if (!fileArg.isEmpty() && !fileArg.startsWith(QLatin1String("builtin:")) && !QFileInfo::exists(fileArg)) {
        std::fprintf(stderr, "skynnet: no such file or folder: %s\n", qPrintable(fileArg));
        return 2;
    }
    skynnet::ui::Theme shownTheme = skynnet::ui::Theme::System;
    if (parser.isSet(theme) && !skynnet::ui::parseTheme(parser.value(theme), &shownTheme)) {
        std::fprintf(stderr, "skynnet: --theme must be system, light or dark, not '%s'\n", qPrintable(parser.value(theme)));
        return 2;
    }
    // Checked before any window opens, so a typo is a message and exit code 2, not a tour that trains something else.
    std::vector<skynnet::LayerSpec> designed;
    if (parser.isSet(layers)) {
        try {
            designed = skynnet::parseLayers(parser.value(layers).toStdString());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "skynnet: --layers: %s\n", e.what());
            return 2;
        }
    }
    bool epochsOk = true;
    const int epochCount = parser.isSet(epochs) ? parser.value(epochs).toInt(&epochsOk) : 0;
    if (!epochsOk || (parser.isSet(epochs) && epochCount < 1)) {
        std::fprintf(stderr, "skynnet: --epochs must be a whole number of at least 1, not '%s'\n", qPrintable(parser.value(epochs)));
        return 2;
    }

    bool ranksOk = true;
    const int rankCount = parser.isSet(ranks) ? parser.value(ranks).toInt(&ranksOk) : 3;
    if (!ranksOk || rankCount < 2) {
        std::fprintf(stderr, "skynnet: --ranks must be a whole number of at least 2, not '%s'\n", qPrintable(parser.value(ranks)));
        return 2;
    }
    const QString hostfile = parser.isSet(hosts) ? QFileInfo(parser.value(hosts)).absoluteFilePath() : QString();
    // A missing project is a message and exit code 2 like the other options, not a dialog that
    // waits for a click on a screen no one may be watching.
    if (parser.isSet(open) && !QFileInfo(parser.value(open)).isFile()) {
        std::fprintf(stderr, "skynnet: --open: no project file at %s\n", qPrintable(parser.value(open)));
        return 2;
    }

    // Screenshots must look the same on every machine: no restored geometry, no recent files.
    std::unique_ptr<QTemporaryDir> scratch;
    std::unique_ptr<skynnet::ui::AppSettings> settings;
    if (parser.isSet(shots)) {
        scratch = std::make_unique<QTemporaryDir>();
        settings = std::make_unique<skynnet::ui::AppSettings>(scratch->filePath(QStringLiteral("settings.ini")));
    }
    skynnet::ui::MainWindow window(std::move(settings));
    if (parser.isSet(theme)) window.setTheme(shownTheme, false);
    QSize size(1500, 940);
    if (parser.isSet(shotSize)) {
        const QStringList wh = parser.value(shotSize).split(QLatin1Char('x'));
        size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
        if (size.width() < 200 || size.height() < 200) {
            std::fprintf(stderr, "skynnet: --screenshot-size must be WIDTHxHEIGHT, e.g. 1024x680, not '%s'\n",
                         qPrintable(parser.value(shotSize)));
            return 2;
        }
    }
    // The default size is kept on the screen (QT_SCALE_FACTOR=1.5 leaves 1066 x 666 of 1600 x 1000); an asked one is kept.
    if (parser.isSet(shots)) window.resize(parser.isSet(shotSize) ? size : size.boundedTo(window.screen()->availableSize()));
    window.show();
    // The start-up options apply to the first data opened (an example's settings are applied first).
    if (!designed.empty() || epochCount > 0 || !hostfile.isEmpty()) {
        auto* once = new QObject(&window);
        QObject::connect(window.dataPage(), &skynnet::ui::DataPage::loadFinished, once,
                         [&window, once, designed, epochCount, hostfile, rankCount](bool ok) {
            if (!ok) return;
            skynnet::ui::ProjectDocument* doc = window.document();
            if (!designed.empty()) {
                skynnet::NetworkSpec net = doc->network();
                net.layers = designed;
                doc->setNetwork(net);
            }
            if (epochCount > 0 || !hostfile.isEmpty()) {
                skynnet::ProjectTraining t = doc->trainSettings();
                if (epochCount > 0) t.config.epochs = epochCount;
                if (!hostfile.isEmpty()) t.runOn = skynnet::RunPlace{true, hostfile.toStdString(), rankCount};
                doc->setTrainSettings(t);
            }
            once->deleteLater();
        });
    }

    if (!fileArg.isEmpty()) {
        window.openPath(fileArg.startsWith(QLatin1String("builtin:")) ? fileArg : QFileInfo(fileArg).absoluteFilePath());
    } else if (parser.isSet(open)) {
        if (!window.projectController()->openFile(QFileInfo(parser.value(open)).absoluteFilePath())) return 2;
    } else if (parser.isSet(data)) {
        const QString path = parser.value(data);
        window.dataPage()->loadFile(path.startsWith(QLatin1String("builtin:")) ? path : QFileInfo(path).absoluteFilePath());
    } else if (parser.isSet(example)) {
        if (!window.openExample(parser.value(example))) {
            std::fprintf(stderr, "skynnet: unknown or unavailable example '%s'\n", qPrintable(parser.value(example)));
            return 2;
        }
    } else if (parser.isSet(shots)) {
        window.openDefaultExample();  // the tour needs data; otherwise the start page waits for the user
    }

    // Connected before the tour, so the project is saved before the tour's last pictures and exit.
    if (parser.isSet(saveProject)) {
        const QString path = QFileInfo(parser.value(saveProject)).absoluteFilePath();
        QObject::connect(window.session(), &skynnet::ui::TrainingSession::finished, &window, [&window, path] {
            if (!window.projectController()->saveTo(path)) std::fprintf(stderr, "skynnet: cannot save %s\n", qPrintable(path));
            else std::printf("saved %s\n", qPrintable(path));
        });
    }
    std::unique_ptr<skynnet::ui::ScreenshotTour> tour;
    if (parser.isSet(shots)) {
        tour = std::make_unique<skynnet::ui::ScreenshotTour>(&window, parser.value(shots));
        // A project opens in the background: the tour starts on it once it is open, since a run
        // started before would be stopped by the open.
        skynnet::ui::ProjectController* project = window.projectController();
        if (project->isOpening()) {
            QObject::connect(project, &skynnet::ui::ProjectController::openFinished, tour.get(),
                             [t = tour.get()](bool ok, const QString& path) {
                                 if (ok) t->start();
                                 else {
                                     std::fprintf(stderr, "skynnet: cannot open %s\n", qPrintable(path));
                                     QApplication::exit(1);
                                 }
                             }, Qt::SingleShotConnection);
        } else {
            tour->start();
        }
    }
    return QApplication::exec();
}
