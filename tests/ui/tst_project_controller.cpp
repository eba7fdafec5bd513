// ProjectController on its own: built from its collaborators with stand-ins for the window and
// the pages (no MainWindow), so what it asks of each is exactly what these record.
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWidget>
#include <QtTest>

#include "project/project_file.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"
#include "ui/widgets/project_controller.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

struct WindowStandIn : ProjectWindowView {
    QWidget parent;
    QStringList statuses;  // every message shown, "" for a clear
    int page = 1, pages = 5;
    QWidget* dialogParent() override { return &parent; }
    void showStatus(const QString& message, int) override { statuses << message; }
    void clearStatus() override { statuses << QString(); }
    void addPermanentStatusWidget(QWidget* widget) override { widget->setParent(&parent); }
    int currentPage() const override { return page; }
    int pageCount() const override { return pages; }
};

struct DataPageStandIn : ProjectDataView {
    QStringList busy, problems;
    QList<ProjectDataSource> loads;
    bool isLoading() const override { return false; }
    bool waitForLoad(int) override { return true; }
    void loadSettings(const ProjectDataSource& settings) override { loads << settings; }
    void showProblem(const QString& text) override { problems << text; }
    void showBusy(const QString& text) override { busy << text; }
};

struct ResultsStandIn : ProjectResultsView {
    int refreshes = 0;
    void refresh() override { ++refreshes; }
};

// A controller with its own document, session and settings, and stand-ins for the rest.
struct Rig {
    ProjectDocument document;
    TrainingSession session{&document};
    AppSettings settings;
    WindowStandIn window;
    DataPageStandIn dataPage;
    ResultsStandIn results;
    QStringList errors;
    ProjectController controller;

    explicit Rig(const QTemporaryDir& dir)
        // Settings of each test's own, so recent projects do not carry over.
        : settings(dir.filePath(QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(".ini"))),
          controller({.document = &document,
                      .session = &session,
                      .settings = &settings,
                      .window = &window,
                      .dataPage = &dataPage,
                      .resultsPage = &results},
                     nullptr) {
        controller.autosave()->setDirectory(dir.filePath(QStringLiteral("recovery")));
        controller.prompts().showError = [this](const QString&, const QString& message) { errors << message; };
    }

    bool openAndWait(const QString& path) {
        QSignalSpy finished(&controller, &ProjectController::openFinished);
        if (!controller.openFile(path)) return false;
        if (finished.isEmpty() && !finished.wait(30000)) return false;
        return finished.count() == 1 && finished.at(0).at(0).toBool();
    }
};

}  // namespace

class TestProjectController : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString project_;  // blobs data, saved on page 3

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        ProjectDocument document;
        TrainingSession session(&document);
        ProjectDataSource data;
        data.train.path = "builtin:blobs";
        data.seed = 7;
        document.load(data);
        QVERIFY(document.hasData());
        project_ = dir_.filePath(QStringLiteral("blobs.skynnet"));
        saveProjectFile(project_, document, session, Json::object({{"page", 3}}));
    }

    void opensThroughItsCollaborators() {
        Rig rig(dir_);
        QSignalSpy pages(&rig.controller, &ProjectController::pageRequested);
        QVERIFY(rig.openAndWait(project_));
        QVERIFY(rig.errors.isEmpty());
        QCOMPARE(rig.document.dataSettings().train.path, std::string("builtin:blobs"));
        QCOMPARE(rig.document.dataSettings().seed, std::uint64_t(7));
        QVERIFY(rig.document.hasData());
        QCOMPARE(rig.document.filePath(), QFileInfo(project_).absoluteFilePath());
        QVERIFY(!rig.document.isModified());
        // Busy while opening, then not; the status bar says the same and then what happened.
        QCOMPARE(rig.dataPage.busy, (QStringList{QStringLiteral("Opening blobs.skynnet…"), QString()}));
        QCOMPARE(rig.window.statuses.first(), QStringLiteral("Opening blobs.skynnet…"));
        QCOMPARE(rig.window.statuses.last(), QStringLiteral("Opened blobs.skynnet"));
        QCOMPARE(rig.dataPage.problems, QStringList{QString()});  // the data was found: no banner
        QVERIFY(rig.results.refreshes >= 1);                      // no run: "no results yet"
        QCOMPARE(pages.count(), 1);
        QCOMPARE(pages.first().first().toInt(), 3);  // the page it was saved on
        QCOMPARE(rig.settings.recentProjects(), QStringList{QFileInfo(project_).absoluteFilePath()});
    }

    void savedPageBeyondTheWindowsPagesOpensTheFirst() {
        Rig rig(dir_);
        rig.window.pages = 3;  // page 3 does not exist here
        QSignalSpy pages(&rig.controller, &ProjectController::pageRequested);
        QVERIFY(rig.openAndWait(project_));
        QCOMPARE(pages.count(), 1);
        QCOMPARE(pages.first().first().toInt(), 0);
    }

    void saveRecordsTheWindowsPage() {
        Rig rig(dir_);
        QVERIFY(rig.openAndWait(project_));
        rig.window.page = 2;
        const QString copy = dir_.filePath(QStringLiteral("copy.skynnet"));
        QVERIFY(rig.controller.saveTo(copy));
        QCOMPARE(rig.window.statuses.last(), QStringLiteral("Saved copy.skynnet"));
        QCOMPARE(rig.document.filePath(), QFileInfo(copy).absoluteFilePath());
        QCOMPARE(rig.settings.recentProjects().first(), QFileInfo(copy).absoluteFilePath());
        const ProjectData saved = loadProject(copy.toStdString());
        QCOMPARE(JsonField(saved.extra).at("page").asInt(), 2);
        QCOMPARE(saved.data.train.path, std::string("builtin:blobs"));
    }

    void dataChosenWhileOpeningWins() {
        Rig rig(dir_);
        QSignalSpy finished(&rig.controller, &ProjectController::openFinished);
        QVERIFY(rig.controller.openFile(project_));
        QVERIFY(rig.controller.isOpening());
        rig.controller.dataLoadStarted();  // the data page began loading other data
        QVERIFY(!rig.controller.isOpening());
        QCOMPARE(rig.dataPage.busy.last(), QString());
        QTest::qWait(500);  // the superseded open's background work ends and is dropped
        QVERIFY(finished.isEmpty());
        QVERIFY(!rig.document.hasData());
        QVERIFY(rig.document.filePath().isEmpty());
    }

    void unreadableFileIsReportedNamingIt() {
        Rig rig(dir_);
        const QString bad = dir_.filePath(QStringLiteral("notes.skynnet"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a project");
        f.close();
        QSignalSpy finished(&rig.controller, &ProjectController::openFinished);
        QVERIFY(rig.controller.openFile(bad));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(rig.errors.size(), 1);
        QVERIFY2(rig.errors.first().contains(QStringLiteral("notes.skynnet")), qPrintable(rig.errors.first()));
        QVERIFY(rig.document.filePath().isEmpty());
        QVERIFY(rig.settings.recentProjects().isEmpty());
    }
};

QTEST_MAIN(TestProjectController)
#include "tst_project_controller.moc"
