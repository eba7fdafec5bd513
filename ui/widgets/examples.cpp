#include "ui/widgets/examples.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace skynnet::ui {
namespace {

const char* const fashionDir = "/usr/share/datasets/fashion-mnist";
const char* const bundled[] = {"iris", "wine", "breast_cancer"};

}  // namespace

QString fashionMnistDirectory() { return QString::fromLatin1(fashionDir); }

bool fashionMnistInstalled() {
    const QDir dir(fashionMnistDirectory());
    return QFileInfo::exists(dir.filePath(QStringLiteral("train-images-idx3-ubyte.gz"))) &&
           QFileInfo::exists(dir.filePath(QStringLiteral("t10k-images-idx3-ubyte.gz")));
}

QString bundledDatasetPath(const QString& name) {
    const QString file = name + QStringLiteral(".csv");
    const QString resource = QStringLiteral(":/datasets/") + file;
    if (QFile::exists(resource)) {
        const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                              QStringLiteral("/datasets");
        const QString target = cache + QLatin1Char('/') + file;
        if (QFileInfo(target).size() == QFileInfo(resource).size()) return target;
        QDir().mkpath(cache);
        QFile::remove(target);
        if (QFile::copy(resource, target)) return target;
    }
#ifdef SKYNNET_SOURCE_DIR
    const QString source = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/") + file;
    if (QFileInfo::exists(source)) return source;
#endif
    return {};
}

QList<Example> availableExamples() {
    QList<Example> list;
    if (fashionMnistInstalled())
        list.push_back({QStringLiteral("fashion-mnist"), QObject::tr("Fashion-MNIST (60,000 images, 10 classes)"),
                        QObject::tr("28x28 clothing images from Debian's fashion-mnist package, with its 10,000-image "
                                    "test file")});
    list.push_back({QStringLiteral("spirals"), QObject::tr("Spirals (3 classes, 2 features)"),
                    QObject::tr("Three interleaved spirals in the plane: needs a non-linear network")});
    list.push_back({QStringLiteral("blobs"), QObject::tr("Blobs (4 classes, 2 features)"),
                    QObject::tr("Four Gaussian clusters: an easy multiclass problem")});
    list.push_back({QStringLiteral("sine"), QObject::tr("Sine regression (3 outputs)"),
                    QObject::tr("Three mixtures of sines of 4 inputs: a regression the output split can divide")});
    for (const char* name : bundled) {
        const QString id = QString::fromLatin1(name);
        if (bundledDatasetPath(id).isEmpty()) continue;
        if (id == QLatin1String("iris"))
            list.push_back(
                {id, QObject::tr("Iris (150 flowers, 3 classes)"), QObject::tr("Fisher's iris measurements (UCI)")});
        else if (id == QLatin1String("wine"))
            list.push_back({id, QObject::tr("Wine (178 wines, 3 classes)"),
                            QObject::tr("Chemical analysis of three cultivars (UCI)")});
        else
            list.push_back({id, QObject::tr("Breast cancer (569 cases, binary)"),
                            QObject::tr("Wisconsin diagnostic breast cancer features (UCI): a binary problem")});
    }
    return list;
}

std::optional<ProjectDataSource> exampleSettings(const QString& id) {
    ProjectDataSource s;
    if (id == QLatin1String("fashion-mnist")) {
        if (!fashionMnistInstalled()) return std::nullopt;
        const QDir dir(fashionMnistDirectory());
        s.train.path = dir.filePath(QStringLiteral("train-images-idx3-ubyte.gz")).toStdString();
        s.test.path = dir.filePath(QStringLiteral("t10k-images-idx3-ubyte.gz")).toStdString();
        s.scaling = Scaling::PixelRange;  // pixels 0..255 -> [0, 1], one range for all
        return s;
    }
    if (id == QLatin1String("spirals")) s.train.path = "builtin:spirals";
    else if (id == QLatin1String("blobs")) s.train.path = "builtin:blobs";
    else if (id == QLatin1String("sine")) s.train.path = "builtin:sine:outputs=3";
    else {
        const QString bundled = bundledDatasetPath(id);
        if (bundled.isEmpty()) return std::nullopt;
        s.train.path = bundled.toStdString();
    }
    return s;
}

void applyExampleProject(ProjectDocument* document, const QString& id) {
    SplitOptions split = document->splitOptions();
    if (id == QLatin1String("fashion-mnist")) {
        split.strategy = Strategy::ClassGroups;
        split.requested = 3;
        document->setSplitOptions(split);
        return;
    }
    // The small examples: a few hundred rows give only a handful of batches per epoch, so the
    // generic defaults (10 epochs of 128) would barely move the weights.
    split.strategy = Strategy::Auto;
    split.requested = 3;
    document->setSplitOptions(split);
    ProjectTraining t = document->trainSettings();
    t.config.epochs = id == QLatin1String("spirals") ? 100 : 60;
    t.config.batchSize = id == QLatin1String("sine") ? 32 : 16;
    t.config.optimizer.learningRate = 0.01f;
    document->setTrainSettings(t);
}

QString defaultExampleId() {
    return fashionMnistInstalled() ? QStringLiteral("fashion-mnist") : QStringLiteral("spirals");
}

namespace {

// Where the example project may be: installed (first) and in the source tree.
QStringList exampleProjectPlaces() {
    const QString name = QStringLiteral("wine-class-groups.skynnet");
    QStringList places;
    // Installed beside its data (share/skynnet/datasets), which it finds by its relative path.
    const QString installed = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                                     QStringLiteral("skynnet/projects/") + name);
    if (!installed.isEmpty()) places << installed;
#ifdef SKYNNET_SOURCE_DIR
    const QString source = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/projects/") + name;
    if (QFileInfo::exists(source)) places << source;
#endif
    return places;
}

}  // namespace

QString exampleProjectPath() { return exampleProjectPlaces().value(0); }

bool isExampleProject(const QString& path) {
    const QString file = QFileInfo(path).canonicalFilePath();
    if (file.isEmpty()) return false;
    for (const QString& place : exampleProjectPlaces())
        if (QFileInfo(place).canonicalFilePath() == file) return true;
    return false;
}

}  // namespace skynnet::ui
