// The desktop application: options, the main window, and optionally the screenshot tour.
#include <QApplication>
#include <QFileInfo>
#include <QScreen>
#include <QTemporaryDir>
#include <cstdio>
#include <memory>

#include "gui_options.h"
#include "io/gemm_routing_file.h"
#include "skynnet_version.h"
#include "spec/network_spec.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/screenshot_tour.h"

namespace {

using skynnet::gui::GuiOptions;
using skynnet::ui::MainWindow;

// The start-up design and training options apply to the first data opened (an example's settings
// are applied first).
void applyToFirstData(MainWindow& window, const GuiOptions& options) {
    if (options.layers.empty() && options.epochs == 0 && options.hostfile.isEmpty()) return;
    auto* once = new QObject(&window);
    QObject::connect(window.dataPage(), &skynnet::ui::DataPage::loadFinished, once, [&window, once, options](bool ok) {
        if (!ok) return;
        skynnet::ui::ProjectDocument* doc = window.document();
        if (!options.layers.empty()) {
            skynnet::NetworkSpec net = doc->network();
            net.layers = options.layers;
            doc->setNetwork(net);
        }
        if (options.epochs > 0 || !options.hostfile.isEmpty()) {
            skynnet::ProjectTraining t = doc->trainSettings();
            if (options.epochs > 0) t.config.epochs = options.epochs;
            if (!options.hostfile.isEmpty())
                t.runOn = skynnet::RunPlace{true, options.hostfile.toStdString(), options.ranks};
            doc->setTrainSettings(t);
        }
        once->deleteLater();
    });
}

// Opens what the command line names; false (after a message) when that cannot be done.
bool openAsked(MainWindow& window, const GuiOptions& options) {
    const auto absolute = [](const QString& path) {
        return path.startsWith(QLatin1String("builtin:")) ? path : QFileInfo(path).absoluteFilePath();
    };
    if (!options.file.isEmpty()) {
        window.openPath(absolute(options.file));
    } else if (options.project) {
        return window.projectController()->openFile(QFileInfo(*options.project).absoluteFilePath());
    } else if (options.data) {
        if (options.task) window.dataPage()->loadFileForTask(absolute(*options.data), *options.task);
        else window.dataPage()->loadFile(absolute(*options.data));
    } else if (options.example) {
        if (!window.openExample(*options.example)) {
            std::fprintf(stderr, "skynnet: unknown or unavailable example '%s'\n", qPrintable(*options.example));
            return false;
        }
    } else if (options.screenshots) {
        window.openDefaultExample();  // the tour needs data; otherwise the start page waits for the user
    }
    return true;
}

// When a run ends, the project is saved to `path`.
void saveWhenFinished(MainWindow& window, const QString& path) {
    QObject::connect(window.session(), &skynnet::ui::TrainingSession::finished, &window, [&window, path] {
        if (!window.projectController()->saveTo(path))
            std::fprintf(stderr, "skynnet: cannot save %s\n", qPrintable(path));
        else std::printf("saved %s\n", qPrintable(path));
    });
}

// A project opens in the background: the tour starts on it once it is open, since a run started
// before would be stopped by the open.
std::unique_ptr<skynnet::ui::ScreenshotTour> startTour(MainWindow& window, const QString& dir) {
    auto tour = std::make_unique<skynnet::ui::ScreenshotTour>(&window, dir);
    skynnet::ui::ProjectController* project = window.projectController();
    if (!project->isOpening()) {
        tour->start();
        return tour;
    }
    const auto opened = [t = tour.get()](bool ok, const QString& path) {
        if (ok) t->start();
        else {
            std::fprintf(stderr, "skynnet: cannot open %s\n", qPrintable(path));
            QApplication::exit(1);
        }
    };
    QObject::connect(project, &skynnet::ui::ProjectController::openFinished, tour.get(), opened,
                     Qt::SingleShotConnection);
    return tour;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Skynnet"));
    QApplication::setApplicationName(QStringLiteral("skynnet"));
    QApplication::setApplicationDisplayName(QStringLiteral("Skynnet"));
    QApplication::setApplicationVersion(QString::fromLatin1(skynnet::skynnetVersion));

    QString error;
    const std::optional<GuiOptions> options = skynnet::gui::parseGuiOptions(QApplication::arguments(), error);
    if (!options) {
        std::fprintf(stderr, "skynnet: %s\n", qPrintable(error));
        return 2;
    }

    // Before anything computes: every product of this process follows the routes measured here
    // (skynnet-cli tune), as the command line's do, so the two train the same bits.
    const skynnet::GemmRoutingLoad routing = skynnet::loadGemmRoutingCache();
    if (!routing.warning.empty()) std::fprintf(stderr, "skynnet: warning: %s\n", routing.warning.c_str());

    // Screenshots must look the same on every machine: no restored geometry, no recent files.
    std::unique_ptr<QTemporaryDir> scratch;
    std::unique_ptr<skynnet::ui::AppSettings> settings;
    if (options->screenshots) {
        scratch = std::make_unique<QTemporaryDir>();
        settings = std::make_unique<skynnet::ui::AppSettings>(scratch->filePath(QStringLiteral("settings.ini")));
    }
    MainWindow window(std::move(settings));
    if (options->theme) window.setTheme(*options->theme, false);
    // The default size is kept on the screen (QT_SCALE_FACTOR=1.5 leaves 1066 x 666 of 1600 x 1000);
    // an asked one is kept.
    const QSize screen = window.screen()->availableSize();
    if (options->screenshots)
        window.resize(options->screenshotSize ? *options->screenshotSize
                                              : skynnet::gui::defaultScreenshotSize.boundedTo(screen));
    window.show();
    applyToFirstData(window, *options);
    if (!openAsked(window, *options)) return 2;
    // Connected before the tour, so the project is saved before the tour's last pictures and exit.
    if (options->saveProject) saveWhenFinished(window, *options->saveProject);
    std::unique_ptr<skynnet::ui::ScreenshotTour> tour;
    if (options->screenshots) tour = startTour(window, *options->screenshots);
    return QApplication::exec();
}
