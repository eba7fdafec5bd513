#include "gui_options.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <exception>

namespace skynnet::gui {
namespace {

struct Options {
    QCommandLineOption data{QStringLiteral("data"),
                            QStringLiteral("Open this data file (CSV/TSV, IDX, an image folder, or builtin:NAME)."),
                            QStringLiteral("PATH")};
    QCommandLineOption task{QStringLiteral("task"),
                            QStringLiteral("Open the --data file for this task: classification, binary, regression or "
                                           "reconstruction (default: detected)."),
                            QStringLiteral("TASK")};
    QCommandLineOption example{QStringLiteral("example"),
                               QStringLiteral("Open this example: fashion-mnist, spirals, blobs, sine, iris, wine, "
                                              "breast_cancer."),
                               QStringLiteral("NAME")};
    QCommandLineOption shots{QStringList{QStringLiteral("screenshots"), QStringLiteral("screenshot-dir")},
                             QStringLiteral("Save PNGs of every page before, during and after training into DIR, "
                                            "then quit."),
                             QStringLiteral("DIR")};
    QCommandLineOption afterTrain{QStringLiteral("screenshot-after-train"),
                                  QStringLiteral("Accepted for compatibility: --screenshots always trains.")};
    QCommandLineOption layers{QStringLiteral("layers"),
                              QStringLiteral("Design these hidden layers once the data is open, as skynnet-cli's "
                                             "--layers (e.g. conv:32:3x3:relu,maxpool:2,flatten,dense:128:relu)."),
                              QStringLiteral("SPEC")};
    QCommandLineOption epochs{QStringLiteral("epochs"),
                              QStringLiteral("Train this many epochs (once the data is open)."), QStringLiteral("N")};
    QCommandLineOption shotSize{QStringLiteral("screenshot-size"),
                                QStringLiteral("Window size of --screenshots, WIDTHxHEIGHT (default 1500x940)."),
                                QStringLiteral("WxH")};
    QCommandLineOption open{QStringLiteral("open"), QStringLiteral("Open this project (.skynnet)."),
                            QStringLiteral("PROJECT")};
    QCommandLineOption saveProject{QStringLiteral("save-project"),
                                   QStringLiteral("When a run ends, save the project to this file (with "
                                                  "--screenshots)."),
                                   QStringLiteral("PROJECT")};
    QCommandLineOption hosts{QStringLiteral("hosts"),
                             QStringLiteral("Run the training on the machines of this Open MPI hostfile (once the data "
                                            "is open), as the Train page's Run on does."),
                             QStringLiteral("HOSTFILE")};
    QCommandLineOption ranks{QStringLiteral("ranks"), QStringLiteral("MPI ranks of a --hosts run (default 3)."),
                             QStringLiteral("K")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("Show the app in this theme: system, light or dark (for this run only)."),
                             QStringLiteral("NAME")};
};

// The options' help texts and the FILE argument, as `skynnet --help` shows them.
void describe(QCommandLineParser& parser, const Options& o) {
    parser.setApplicationDescription(QStringLiteral("Train neural networks by the Skynnet split method."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({o.data, o.task, o.example, o.shots, o.afterTrain, o.layers, o.epochs, o.shotSize, o.open,
                       o.saveProject, o.hosts, o.ranks, o.theme});
    const QString file = QStringLiteral("A project (.skynnet), a model file (.skym) or data to open (as --data). "
                                        "Without FILE, --open, --data or --example the start page opens, or with "
                                        "--screenshots the ready example.");
    parser.addPositionalArgument(QStringLiteral("FILE"), file, QStringLiteral("[FILE]"));
}

std::optional<QString> valueOf(const QCommandLineParser& parser, const QCommandLineOption& option) {
    return parser.isSet(option) ? std::optional<QString>(parser.value(option)) : std::nullopt;
}

// What to open: at most one FILE, which exists (or is builtin:NAME), and not with --open, --data
// or --example; an --open project must exist (a message, not a dialog no one may be watching).
QString checkWhatToOpen(const QCommandLineParser& parser, const Options& o, GuiOptions& options) {
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) return QStringLiteral("give one FILE to open, not %1").arg(positional.size());
    options.file = positional.isEmpty() ? QString() : positional.front();
    options.project = valueOf(parser, o.open);
    options.data = valueOf(parser, o.data);
    options.example = valueOf(parser, o.example);
    if (!options.file.isEmpty() && (options.project || options.data || options.example))
        return QStringLiteral("FILE and --open, --data or --example: give only one thing to open");
    const bool builtin = options.file.startsWith(QLatin1String("builtin:"));
    if (!options.file.isEmpty() && !builtin && !QFileInfo::exists(options.file))
        return QStringLiteral("no such file or folder: %1").arg(options.file);
    return {};
}

// A whole number of at least `least`, or nullopt.
std::optional<int> wholeNumber(const QString& text, int least) {
    bool ok = false;
    const int n = text.toInt(&ok);
    return ok && n >= least ? std::optional<int>(n) : std::nullopt;
}

// The error of the first wrong value, in the order the app always checked them; "" when all are right.
QString readValues(const QCommandLineParser& parser, const Options& o, GuiOptions& options) {
    if (QString error = checkWhatToOpen(parser, o, options); !error.isEmpty()) return error;
    if (parser.isSet(o.task)) {
        if (!options.data) return QStringLiteral("--task needs --data, the file to open for it");
        try {
            options.task = parseTask(parser.value(o.task).toStdString());
        } catch (const std::exception& e) {
            return QStringLiteral("--task: %1").arg(QString::fromStdString(e.what()));
        }
    }
    if (parser.isSet(o.theme)) {
        ui::Theme theme = ui::Theme::System;
        if (!ui::parseTheme(parser.value(o.theme), &theme))
            return QStringLiteral("--theme must be system, light or dark, not '%1'").arg(parser.value(o.theme));
        options.theme = theme;
    }
    if (parser.isSet(o.layers)) {
        try {
            options.layers = parseLayers(parser.value(o.layers).toStdString());
        } catch (const std::exception& e) {
            return QStringLiteral("--layers: %1").arg(QString::fromStdString(e.what()));
        }
    }
    if (parser.isSet(o.epochs)) {
        const std::optional<int> epochs = wholeNumber(parser.value(o.epochs), 1);
        if (!epochs)
            return QStringLiteral("--epochs must be a whole number of at least 1, not '%1'")
                .arg(parser.value(o.epochs));
        options.epochs = *epochs;
    }
    if (parser.isSet(o.ranks)) {
        const std::optional<int> ranks = wholeNumber(parser.value(o.ranks), 2);
        if (!ranks)
            return QStringLiteral("--ranks must be a whole number of at least 2, not '%1'").arg(parser.value(o.ranks));
        options.ranks = *ranks;
    }
    if (parser.isSet(o.hosts)) options.hostfile = QFileInfo(parser.value(o.hosts)).absoluteFilePath();
    if (options.project && !QFileInfo(*options.project).isFile())
        return QStringLiteral("--open: no project file at %1").arg(*options.project);
    options.screenshots = valueOf(parser, o.shots);
    if (parser.isSet(o.shotSize)) {
        const QStringList wh = parser.value(o.shotSize).split(QLatin1Char('x'));
        const QSize size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
        if (size.width() < 200 || size.height() < 200)
            return QStringLiteral("--screenshot-size must be WIDTHxHEIGHT, e.g. 1024x680, not '%1'")
                .arg(parser.value(o.shotSize));
        options.screenshotSize = size;
    }
    if (parser.isSet(o.saveProject)) options.saveProject = QFileInfo(parser.value(o.saveProject)).absoluteFilePath();
    return {};
}

}  // namespace

std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString& error) {
    QCommandLineParser parser;
    const Options o;
    describe(parser, o);
    parser.process(arguments);
    GuiOptions options;
    error = readValues(parser, o, options);
    if (!error.isEmpty()) return std::nullopt;
    return options;
}

}  // namespace skynnet::gui
