// The Study page: a small study of the bundled wine data run from the page to completion gives
// the numbers of `skynnet-cli study` with the same options; Stop keeps the finished runs and
// Start continues; the study survives a save and reopen and is marked out of date when the
// network changes; the recommendation of a worked example for K=1 and K=2 machines.
#include <QChartView>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <QApplication>
#include <cmath>

#include "cli_support.h"  // processesMentioning, EnvScope, SKYNNET_CLI_PATH
#include "io/atomic_file.h"
#include "project/project_file.h"
#include "split/schedule.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/formatting.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/run_history.h"
#include "ui/core/run_log_progress.h"
#include "ui/core/study_estimate.h"
#include "ui/core/study_session.h"
#include "ui/core/study_setup.h"
#include "ui/core/study_summary.h"
#include "ui/core/training_session.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/study_page.h"
#include "ui/widgets/window_grab.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString wineCsv = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");

// The wine data, class groups of N=3, a few epochs on 2 threads, no baseline.
void configureWine(ProjectDocument& doc, int epochs) {
    ProjectDataSource s;
    s.train.path = wineCsv.toStdString();
    doc.load(s);
    SplitOptions o = doc.splitOptions();
    o.strategy = Strategy::ClassGroups;
    o.requested = 3;
    doc.setSplitOptions(o);
    ProjectTraining t = doc.trainSettings();
    t.config.epochs = epochs;
    t.threadBudget = 2;
    t.trainBaseline = false;
    doc.setTrainSettings(t);
}

void choose(StudyPage& page, const QString& submodels, const QString& seeds, bool ensemble) {
    page.submodelsEdit()->setText(submodels);
    page.seedsEdit()->setText(seeds);
    page.ensembleBox()->setChecked(ensemble);
}

const Json* runNamed(const StudyRecord& r, const std::string& name) {
    for (const Json& run : r.runs)
        if (run.value("run", std::string()) == name) return &run;
    return nullptr;
}

const Json* configNamed(const Json& summary, const std::string& name) {
    for (const Json& c : summary.at("configurations"))
        if (c.value("config", std::string()) == name) return &c;
    return nullptr;
}

Json run(const std::string& config, int n, std::uint64_t seed, std::vector<double> submodelSeconds, double metric) {
    return Json::object({{"run", config + "-seed" + std::to_string(seed)},
                         {"config", config},
                         {"submodels", n},
                         {"seed", seed},
                         {"status", "finished"},
                         {"metric", metric},
                         {"submodel_seconds", submodelSeconds}});
}

Json config(const std::string& name, int n, const std::string& strategy, double mean, Json sd, double wall) {
    return Json::object({{"config", name},
                         {"submodels", n},
                         {"S", n},
                         {"strategy", strategy},
                         {"scale_epochs", false},
                         {"runs", 2},
                         {"metric_mean", mean},
                         {"metric_sd", sd},
                         {"difference", Json()},
                         {"wall_seconds_mean", wall},
                         {"wall_seconds_sd", 0.1},
                         {"slowest_submodel_seconds_mean", wall},
                         {"cpu_seconds_mean", wall},
                         {"peak_memory_bytes_max", 1000000},
                         {"params", 100},
                         {"flops_per_sample", 2000000},
                         {"latency_seconds_per_batch_median", 0.001}});
}

// A worked example: the original 0.90 ± 0.02 (threshold 0.88). On this machine N6 has the
// shortest wall time within it; the ensemble is faster still but below the threshold, and
// N3-seed2's failed run counts for nothing. Longest first on K machines:
//   N3 [4, 1, 1]: K=1 6, K=2 4 (4 | 1+1);   N6 [1.5, 1 x 5]: K=1 6.5, K=2 3.5 (1.5+1+1 | 1+1+1).
StudyRecord workedExample() {
    StudyRecord r;
    r.choice.submodels = {1, 3, 6};
    r.choice.seeds = {1, 2};
    r.total = 8;
    r.complete = true;
    for (std::uint64_t seed : {1, 2}) {
        r.runs.push_back(run("N1", 1, seed, {10.0}, 0.9));
        r.runs.push_back(run("N3", 3, seed, {4.0, 1.0, 1.0}, 0.89));
        r.runs.push_back(run("N3-ensemble", 3, seed, {0.5, 0.5, 0.5}, 0.85));
        r.runs.push_back(run("N6", 6, seed, {1.5, 1.0, 1.0, 1.0, 1.0, 1.0}, 0.885));
    }
    Json failed = Json::object(
        {{"run", "N3-seed3"}, {"config", "N3"}, {"submodels", 3}, {"seed", 3}, {"status", "failed"}, {"error", "x"}});
    r.runs.push_back(failed);
    r.summary = Json::object({{"metric_name", "accuracy"},
                              {"original", Json::object({{"metric_mean", 0.9}, {"metric_sd", 0.02}})},
                              {"configurations", Json::array({config("N1", 1, "original", 0.9, 0.02, 10.0),
                                                              config("N3", 3, "class-groups", 0.89, 0.01, 5.0),
                                                              config("N3-ensemble", 3, "ensemble", 0.85, 0.01, 1.0),
                                                              config("N6", 6, "class-groups", 0.885, 0.01, 4.0)})}});
    return r;
}

StudyChoice studyChoiceOf(const QString& submodels, const QString& seeds, bool ensemble) {
    StudyChoice c;
    c.submodels = parseSubmodelList(submodels);
    c.seeds = parseSeedList(seeds);
    c.ensemble = ensemble;
    return c;
}

// Whether a label of the window's status bar starts with `text`.
bool statusBarShows(MainWindow& w, const QString& text) {
    for (const QLabel* l : w.statusBar()->findChildren<QLabel*>())
        if (l->text().startsWith(text)) return true;
    return false;
}

// The window on the Study page in both themes at both sizes: <dir>/<stage>-<theme>-<w>x<h>.png.
void grabStudyPage(MainWindow& w, const QString& dir, const QString& stage) {
    for (Theme theme : {Theme::Light, Theme::Dark}) {
        w.setTheme(theme, false);
        for (QSize size : {QSize(1600, 1000), QSize(1024, 680)}) {
            w.resize(size);
            settleEvents(300);
            const QString name = QStringLiteral("%1-%2-%3x%4.png")
                                     .arg(stage,
                                          theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light"))
                                     .arg(size.width())
                                     .arg(size.height());
            QVERIFY(w.grab().save(QDir(dir).filePath(name)));
        }
    }
}

}  // namespace

class TestStudyPage : public QObject {
    Q_OBJECT

private slots:
    void recommendationWorkedExample() {
        QCOMPARE(machinesSeconds({4, 1, 1}, 1), 6.0);
        QCOMPARE(machinesSeconds({4, 1, 1}, 2), 4.0);
        QCOMPARE(machinesSeconds({1.5, 1, 1, 1, 1, 1}, 2), 3.5);
        QCOMPARE(machinesSeconds({1.5, 1, 1, 1, 1, 1}, 6), 1.5);
        QCOMPARE(machinesSeconds({}, 3), 0.0);

        const StudyRecord r = workedExample();
        const StudyRecommendation one = recommendStudy(r, 1), two = recommendStudy(r, 2);
        QVERIFY(one.threshold && std::fabs(*one.threshold - 0.88) < 1e-12);
        QVERIFY(one.thisMachine && two.thisMachine);
        QCOMPARE(one.thisMachine->config, QString("N6"));
        QCOMPARE(one.thisMachine->seconds, 4.0);
        QCOMPARE(two.thisMachine->config, QString("N6"));  // this machine's choice does not depend on K
        QVERIFY(one.onMachines && two.onMachines);
        QCOMPARE(one.onMachines->config, QString("N3"));
        QCOMPARE(one.onMachines->seconds, 6.0);
        QCOMPARE(two.onMachines->config, QString("N6"));
        QCOMPARE(two.onMachines->seconds, 3.5);
        const QString text = recommendationText(two);
        VERIFY_CONTAINS(text.toStdString(), "Original: accuracy 0.9000 ± 0.0200");
        VERIFY_CONTAINS(text.toStdString(), "on this machine: N6 (class-groups), 4.00 s wall, 0.8850");
        VERIFY_CONTAINS(text.toStdString(),
                        "on 2 machines: N6 (class-groups), 3.50 s for the submodels scheduled longest first");

        // One seed of the original: no spread, so only what reaches its mean counts.
        StudyRecord single = r;
        single.summary["original"]["metric_sd"] = Json();
        QCOMPARE(recommendStudy(single, 1).thisMachine->config, QString("N1"));

        // The page shows the same, recomputed when K changes.
        ProjectDocument doc;
        StudyPage page(&doc);
        doc.setStudy(ProjectStudy{std::nullopt, r.toJson()});
        QVERIFY(page.hasStudy());
        VERIFY_CONTAINS(page.recommendationLabel()->text().toStdString(), "on 1 machine: N3 (class-groups), 6.00 s");
        QTableWidget* table = page.table();
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->horizontalHeaderItem(11)->text(), QString("on 1 machine s"));
        QCOMPARE(table->item(3, 0)->text(), QString("N6"));
        QCOMPARE(table->item(3, 11)->text(), QString("6.50"));
        page.machinesBox()->setValue(2);
        VERIFY_CONTAINS(page.recommendationLabel()->text().toStdString(), "on 2 machines: N6 (class-groups), 3.50 s");
        QCOMPARE(table->horizontalHeaderItem(11)->text(), QString("on 2 machines s"));
        QCOMPARE(table->item(3, 11)->text(), QString("3.50"));
        QCOMPARE(table->item(1, 11)->text(), QString("4.00"));
        QCOMPARE(table->item(1, 6)->text(), QString("0.8900"));
    }

    void pageStudyGivesTheClisNumbers() {
        QTemporaryDir dir;
        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        ProjectDocument doc;
        configureWine(doc, 5);
        doc.setFilePath(dir.filePath("wine.skynnet"));
        StudyPage page(&doc);
        QCOMPARE(page.progressBar()->text(), QString("no study yet"));
        choose(page, "1,3", "1,2", false);
        QVERIFY2(page.start(), qPrintable(page.errorLabel()->text()));
        QVERIFY(page.running());
        QVERIFY(!page.startButton()->isEnabled() && page.stopButton()->isEnabled());
        QVERIFY(page.session()->waitForFinished(hangGuardMs(300000)));
        QVERIFY2(page.errorLabel()->isHidden(), qPrintable(page.errorLabel()->text()));
        QCOMPARE(page.statusLabel()->text(), QString("Finished: 4 runs."));
        QCOMPARE(page.progressBar()->text(), QString("4 of 4 runs"));
        const StudyRecord& r = page.record();
        QVERIFY(r.complete);
        QCOMPARE(r.total, 4);
        QCOMPARE(r.finishedRuns(), 4);
        QCOMPARE(r.folder, dir.filePath("wine.skynnet.study"));
        QVERIFY(doc.study() && doc.study()->settings);
        QCOMPARE(StudyRecord::fromJson(doc.study()->record).toJson(), r.toJson());
        QVERIFY(doc.isModified());

        // The CLI on the same project with the same options, in a folder of its own.
        const QString out = dir.filePath("cli");
        QProcess p;
        p.start(QStringLiteral(SKYNNET_CLI_PATH), {"study", "--project", studyProjectPath(r.folder), "--submodels",
                                                   "1,3", "--seeds", "1,2", "--no-ensemble", "--out", out});
        QVERIFY(p.waitForFinished(hangGuardMs(300000)));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const Json study = parseJson(readFile((out + "/study.json").toStdString()), "study.json");
        QCOMPARE(study.at("runs").size(), std::size_t(4));
        for (const Json& cliRun : study.at("runs")) {
            const std::string name = cliRun.at("run").get<std::string>();
            const Json* mine = runNamed(r, name);
            QVERIFY2(mine, name.c_str());
            for (const char* key : {"metric", "S", "strategy", "params", "flops_per_sample", "metric_name"})
                QVERIFY2(mine->at(key) == cliRun.at(key), (name + " " + key).c_str());
        }
        for (const char* name : {"N1", "N3"}) {
            const Json* mine = configNamed(r.summary, name);
            const Json* theirs = configNamed(study.at("summary"), name);
            QVERIFY(mine && theirs);
            for (const char* key : {"metric_mean", "metric_sd", "runs", "params"})
                QVERIFY2(mine->at(key) == theirs->at(key), key);
        }
        QCOMPARE(configNamed(r.summary, "N3")->at("difference").at("mean"),
                 configNamed(study.at("summary"), "N3")->at("difference").at("mean"));
        QCOMPARE(configNamed(r.summary, "N3")->at("difference").at("ci95_low"),
                 configNamed(study.at("summary"), "N3")->at("difference").at("ci95_low"));
        // The table says it in the CLI's words.
        QCOMPARE(page.table()->rowCount(), 2);
        QCOMPARE(page.table()->item(1, 0)->text(), QString("N3"));
        QCOMPARE(page.table()->item(1, 6)->text(),
                 QString::number(configNamed(study.at("summary"), "N3")->at("metric_mean").get<double>(), 'f', 4));
        VERIFY_CONTAINS(page.recommendationLabel()->text().toStdString(),
                        "Recommended, the shortest time with a mean accuracy of at least");
    }

    void stopThenStartContinues() {
        QTemporaryDir dir;
        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        ProjectDocument doc;
        configureWine(doc, 200);
        doc.setFilePath(dir.filePath("wine.skynnet"));
        StudyPage page(&doc);
        choose(page, "1,3", "1,2,3", false);
        QVERIFY2(page.start(), qPrintable(page.errorLabel()->text()));
        const QString folder = page.record().folder;
        QTRY_VERIFY_WITH_TIMEOUT(page.record().finishedRuns() >= 1, hangGuardMs(120000));
        page.stop();
        QVERIFY(page.session()->waitForFinished(hangGuardMs(60000)));
        QVERIFY(!page.running());
        QCOMPARE(processesMentioning(folder), 0);  // neither the study nor a train run is left
        const int kept = page.record().finishedRuns();
        QVERIFY(kept >= 1 && kept < 6);
        VERIFY_CONTAINS(page.statusLabel()->text().toStdString(),
                        "Stopped: " + std::to_string(kept) +
                            " of 6 runs are finished and kept; Start continues the study.");
        QVERIFY(page.startButton()->isEnabled());
        QVERIFY(!page.record().complete);
        QVERIFY(page.record().summary.is_object());  // the partial summary of the finished runs
        QCOMPARE(doc.study()->record.at("runs").size(), std::size_t(kept));

        QVERIFY(page.start());
        VERIFY_CONTAINS(page.statusLabel()->text().toStdString(), "Continuing the study in");
        QVERIFY(page.session()->waitForFinished(hangGuardMs(300000)));
        QVERIFY2(page.errorLabel()->isHidden(), qPrintable(page.errorLabel()->text()));
        const StudyRecord& r = page.record();
        QVERIFY(r.complete);
        QCOMPARE(r.finishedRuns(), 6);
        QCOMPARE(int(r.runs.size()), 6);
        int reused = 0;
        for (const Json& run : r.runs) reused += run.value("reused", false);
        QCOMPARE(reused, kept);

        // Other choices start afresh: the earlier runs are not mixed in.
        choose(page, "1,3", "1", false);
        QVERIFY(page.start());
        QVERIFY(page.session()->waitForFinished(hangGuardMs(300000)));
        QCOMPARE(page.record().total, 2);
        QCOMPARE(page.record().finishedRuns(), 2);
        for (const Json& run : page.record().runs) QVERIFY(!run.value("reused", true));
    }

    void studySurvivesSaveAndReopen() {
        QTemporaryDir dir;
        const QString path = dir.filePath("kept.skynnet");
        ProjectDocument doc;
        TrainingSession session(&doc);
        configureWine(doc, 5);
        StudyPage page(&doc);
        const StudyRecord example = workedExample();
        doc.setStudy(ProjectStudy{currentRunSettings(doc), example.toJson()});
        QVERIFY(doc.isModified());
        QVERIFY(page.outOfDateLabel()->isHidden());
        saveProjectFile(path, doc, session);

        const ProjectData saved = loadProject(path.toStdString());
        QVERIFY(saved.study);
        QCOMPARE(saved.study->record, example.toJson());
        QVERIFY(saved.study->settings);
        QVERIFY(saved.study->settings->network == doc.network());

        ProjectDocument reopened;
        TrainingSession reopenedSession(&reopened);
        StudyPage reopenedPage(&reopened);
        OpenedProject opened = openProjectData(saved, true);
        applyProject(reopened, reopenedSession, opened, path);
        QVERIFY(!reopened.isModified());
        QVERIFY(reopenedPage.hasStudy());
        QCOMPARE(reopenedPage.record().toJson(), example.toJson());
        QCOMPARE(reopenedPage.submodelsEdit()->text(), QString("1,3,6"));
        QCOMPARE(reopenedPage.seedsEdit()->text(), QString("1,2"));
        QCOMPARE(reopenedPage.table()->rowCount(), page.table()->rowCount());
        for (int row = 0; row < page.table()->rowCount(); ++row)
            for (int c = 0; c < page.table()->columnCount(); ++c)
                QCOMPARE(reopenedPage.table()->item(row, c)->text(), page.table()->item(row, c)->text());
        QCOMPARE(reopenedPage.recommendationLabel()->text(), page.recommendationLabel()->text());
        QVERIFY2(reopenedPage.outOfDateLabel()->isHidden(), qPrintable(reopenedPage.outOfDateLabel()->text()));

        NetworkSpec wider = reopened.network();
        wider.layers = parseLayers("dense:48:relu");
        reopened.setNetwork(wider);
        QVERIFY(!reopenedPage.outOfDateLabel()->isHidden());
        QCOMPARE(reopenedPage.outOfDateLabel()->text(),
                 QString("Out of date: the network changed since this study. Start runs a new study."));

        // A project without a study has no "study" field and opens with none.
        ProjectDocument plain;
        TrainingSession plainSession(&plain);
        configureWine(plain, 5);
        const QString plainPath = dir.filePath("plain.skynnet");
        saveProjectFile(plainPath, plain, plainSession);
        QVERIFY(!loadProject(plainPath.toStdString()).study);
    }

    // Screenshots of the page before, during and after a study (SKYNNET_STUDY_SHOTS=DIR), for
    // people to look at; nothing is asserted about how it looks.
    void screenshots() {
        const QString dir = qEnvironmentVariable("SKYNNET_STUDY_SHOTS");
        if (dir.isEmpty()) QSKIP("set SKYNNET_STUDY_SHOTS=DIR to write screenshots of the page");
        QDir().mkpath(dir);
        QTemporaryDir settings;
        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        MainWindow w(std::make_unique<AppSettings>(settings.filePath("s.ini")));
        w.show();
        configureWine(*w.document(), 300);
        w.document()->setFilePath(settings.filePath("wine.skynnet"));
        w.showPage(MainWindow::StudyPageIndex);
        StudyPage& page = *w.studyPage();
        choose(page, "1,3,6", "1,2,3", true);
        grabStudyPage(w, dir, "1-before");
        QVERIFY(page.start());
        QTRY_VERIFY_WITH_TIMEOUT(page.record().finishedRuns() >= 4, hangGuardMs(300000));
        grabStudyPage(w, dir, "2-during");
        QVERIFY(page.session()->waitForFinished(hangGuardMs(600000)));
        page.machinesBox()->setValue(2);
        grabStudyPage(w, dir, "3-after");
    }

    // The session alone, without a page: it reads the project's study, says why it cannot start,
    // and keeps what it started in the project.
    void sessionWithoutPage() {
        ProjectDocument doc;
        StudySession session(&doc);
        QVERIFY(!session.hasStudy());
        QCOMPARE(session.status(), QString("No study yet: choose the N list and seeds, then Start."));
        QSignalSpy loaded(&session, &StudySession::loaded);
        doc.setStudy(ProjectStudy{std::nullopt, workedExample().toJson()});
        QVERIFY(session.hasStudy());
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.first().first().value<StudyChoice>(), workedExample().choice);
        QCOMPARE(session.status(), QString("Study of 8 runs."));
        doc.setStudy(ProjectStudy{std::nullopt, Json::object({{"runs", 3}})});
        QVERIFY(!session.hasStudy());
        VERIFY_CONTAINS(session.error().toStdString(), "The project's study cannot be shown: ");

        QSignalSpy running(&session, &StudySession::runningChanged);
        QVERIFY(!session.start(StudyChoice{}));
        QCOMPARE(session.error(), QString("Load the data first: a study trains the project."));
        QCOMPARE(running.count(), 0);
        QVERIFY(!session.remainingSeconds());

        QTemporaryDir dir;
        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        configureWine(doc, 5);
        doc.setFilePath(dir.filePath("wine.skynnet"));
        StudyChoice choice;
        choice.submodels = {1, 3};
        choice.seeds = {1};
        choice.ensemble = false;
        QVERIFY(session.start(choice));
        QVERIFY(session.error().isEmpty());
        QCOMPARE(running.count(), 1);
        QCOMPARE(doc.study()->record.at("folder").get<std::string>(), dir.filePath("wine.skynnet.study").toStdString());
        QVERIFY(session.waitForFinished(hangGuardMs(300000)));
        QCOMPARE(running.count(), 2);
        QVERIFY(!running.last().first().toBool());
        QCOMPARE(session.status(), QString("Finished: 2 runs."));
        QCOMPARE(StudyRecord::fromJson(doc.study()->record).toJson(), session.record().toJson());
    }

    // The run in progress, read from its log: the events the train child writes there between its
    // human lines, whole lines only, each model's epochs counted once and within its plan.
    void runLogProgressCountsEpochs() {
        const auto line = [](const ProgressEvent& e) { return QByteArray::fromStdString(dumpJson(toJson(e))); };
        RunLogProgress p;
        QVERIFY(!p.planned());
        QCOMPARE(p.fraction(), 0.0);
        QVERIFY(!p.feed("submodel 1/3: epoch 1/10 loss 0.5"));  // a human line
        QVERIFY(p.feed(line(PlanEvent{3, {"a", "b", "c"}, 10, true, 20})));
        QCOMPARE(p.models(), 4);
        QCOMPARE(p.epochsTotal(), 50);
        EpochStats fourth;
        fourth.epoch = 4;
        QVERIFY(p.feed(line(EpochEvent{{EventModel::Submodel, 1}, fourth})));
        QVERIFY(!p.feed(line(EpochEvent{{EventModel::Submodel, 1}, fourth})));  // no further
        QVERIFY(p.feed(line(BatchEvent{{EventModel::Submodel, 2}, BatchProgress{3, 5, 10, 0.5}})));
        // Early stopping ends a model before its last epoch: it is done all the same.
        QVERIFY(p.feed(line(FinishedEvent{{EventModel::Submodel, 3}, TrainStatus::EarlyStopped, "", 7, 1.0, 1.0})));
        EpochStats second;
        second.epoch = 2;
        QVERIFY(p.feed(line(EpochEvent{{EventModel::Baseline, 0}, second})));
        QVERIFY(!p.feed(line(EpochEvent{{EventModel::Submodel, 9}, second})));  // outside the plan
        QVERIFY(!p.feed("{\"event\":\"epoch\",\"model\""));                     // cut short
        QCOMPARE(p.epochsDone(), 4 + 2.5 + 10 + 2);
        QCOMPARE(p.fraction(), 18.5 / 50);

        // From a file as it is written: a line counts once it is whole.
        QTemporaryDir dir;
        const QString path = dir.filePath("run.log");
        RunLogProgress file(path);
        QVERIFY(!file.poll());  // not there yet
        QFile log(path);
        QVERIFY(log.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        const QByteArray plan = line(PlanEvent{1, {"all"}, 4, false, 0});
        log.write("planning...\n" + plan.left(10));
        QVERIFY(!file.poll());
        log.write(plan.mid(10) + "\n");
        QVERIFY(file.poll());
        QCOMPARE(file.epochsTotal(), 4);
        log.write(line(EpochEvent{{EventModel::Submodel, 1}, fourth}) + "\n");
        QVERIFY(file.poll());
        QCOMPARE(file.fraction(), 1.0);
    }

    // Before Start: the runs the study makes and their time, from the plan's costs at a speed.
    void estimateBeforeStart() {
        ProjectDocument doc;
        configureWine(doc, 20);
        StudyPage page(&doc);
        choose(page, "1,3", "1,2,3", true);
        QTRY_VERIFY(page.estimateLabel()->text().startsWith("9 runs: 3 configurations × 3 seeds."));
        QVERIFY(!page.estimateLabel()->text().contains("Roughly"));  // no speed measured: the page is hidden

        // The cost of a configuration is its plan's, as the run's copy of the project plans it.
        StudyChoice choice = studyChoiceOf("1,3", "1,2,3", true);
        QCOMPARE(int(studyPlanOf(choice).runs().size()), 9);
        const SplitPlan n3 = doc.plan();  // the project's own: class groups, N=3
        double n3Cost = 0;
        for (int i = 0; i < n3.submodelCount(); ++i) n3Cost += submodelCost(n3, i);
        QCOMPARE(studyRunCost(doc, StudyConfig{3, "", "", ""}).total, n3Cost);
        const RunCost original = studyRunCost(doc, StudyConfig{});
        QCOMPARE(original.total, double(n3.originalFlopsPerSample) * double(doc.planDataInfo().samples) * 20);
        QCOMPARE(original.largest, original.total);

        // Twice the speed halves the training part; the time on the data stays.
        const StudyEstimate slow = estimateStudy(doc, choice, TrainingSpeed{1e6, 0.5}, 2);
        const StudyEstimate fast = estimateStudy(doc, choice, TrainingSpeed{2e6, 0.5}, 2);
        QVERIFY(slow.seconds && fast.seconds);
        const double fixed = 9 * (0.5 + 0.4);
        QVERIFY(std::fabs((*slow.seconds - fixed) - 2 * (*fast.seconds - fixed)) < 1e-9 * *slow.seconds);
        QVERIFY(*slow.seconds > *fast.seconds && *fast.seconds > fixed);
        page.setMeasuredSpeed(TrainingSpeed{1e6, 0.5});
        VERIFY_CONTAINS(page.estimateLabel()->text().toStdString(),
                        "Roughly " + formatDuration(*slow.seconds).toStdString() + " on this machine");

        // Shown, the page measures this machine's speed.
        ProjectDocument measured;
        configureWine(measured, 20);
        StudyPage shown(&measured);
        shown.show();
        QTRY_VERIFY_WITH_TIMEOUT(shown.measuredSpeed().has_value(), hangGuardMs(30000));
        QVERIFY(shown.measuredSpeed()->costPerSecond > 0);
        QTRY_VERIFY(shown.estimateLabel()->text().contains("Roughly"));
        // Other training settings: measured again.
        ProjectTraining t = measured.trainSettings();
        t.config.batchSize = 16;
        measured.setTrainSettings(t);
        QVERIFY(!shown.measuredSpeed());
        QTRY_VERIFY_WITH_TIMEOUT(shown.measuredSpeed().has_value(), hangGuardMs(30000));
    }

    // During a study: how far the run in progress has got, on the page and in the window's status bar.
    void progressWithinTheRun() {
        QTemporaryDir dir;
        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        MainWindow w(std::make_unique<AppSettings>(dir.filePath("s.ini")));
        w.resize(1024, 680);
        w.show();
        ProjectDocument& doc = *w.document();
        configureWine(doc, 20);
        ProjectDataSource slow = doc.dataSettings();
        slow.train.path = "builtin:blobs:samples=20000:classes=6:features=32:noise=1.0";
        doc.load(slow);
        ProjectTraining t = doc.trainSettings();
        t.config.epochs = 400;
        doc.setTrainSettings(t);
        doc.setFilePath(dir.filePath("blobs.skynnet"));
        w.showPage(MainWindow::StudyPageIndex);
        StudyPage& page = *w.studyPage();
        choose(page, "1", "1", false);
        QTRY_VERIFY_WITH_TIMEOUT(page.estimateLabel()->text().contains("Roughly"), hangGuardMs(30000));
        QVERIFY(page.estimateLabel()->text().startsWith("1 run: 1 configuration × 1 seed."));
        shoot(&w, "study-before");
        QVERIFY2(page.start(), qPrintable(page.errorLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(page.session()->runProgress() && page.session()->runProgress()->fraction() >= 0.02,
                                 hangGuardMs(120000));
        QVERIFY(page.record().runs.empty());  // within the first run
        QVERIFY(page.progressBar()->value() > 0);
        QCOMPARE(page.progressBar()->text(), QString("0 of 1 runs"));
        VERIFY_CONTAINS(page.runProgressLabel()->text().toStdString(), "This run (N1-seed1): ");
        VERIFY_CONTAINS(page.runProgressLabel()->text().toStdString(), " of 400 epochs of its 1 model");
        QVERIFY(!page.runProgressLabel()->isHidden());
        VERIFY_CONTAINS(page.statusBarText().toStdString(), "Study: run 1 of 1, ");
        QTRY_VERIFY(statusBarShows(w, "Study: run 1 of 1, "));
        VERIFY_CONTAINS(page.findChild<QLabel*>("studyRemaining")->text().toStdString(), "estimated before the start");
        shoot(&w, "study-during");
        page.stop();
        QVERIFY(page.session()->waitForFinished(hangGuardMs(60000)));
        QVERIFY(page.runProgressLabel()->isHidden());
        QVERIFY(page.statusBarText().isEmpty());
        QTRY_VERIFY(!statusBarShows(w, "Study"));
    }

    void badChoicesAreNamed() {
        ProjectDocument doc;
        StudyPage page(&doc);
        QVERIFY(!page.start());
        QCOMPARE(page.errorLabel()->text(), QString("Load the data first: a study trains the project."));
        configureWine(doc, 5);
        page.submodelsEdit()->setText("1,0");
        QVERIFY(!page.start());
        QCOMPARE(page.errorLabel()->text(), QString("N list: '0' is not a whole number of at least 1"));
        page.submodelsEdit()->setText("3");
        page.seedsEdit()->setText("1,,2");
        QVERIFY(!page.start());
        QCOMPARE(page.errorLabel()->text(),
                 QString("Seeds: expects a comma-separated list without empty items, got '1,,2'"));
        page.seedsEdit()->setText("2,2");
        QVERIFY(!page.start());
        QCOMPARE(page.errorLabel()->text(), QString("Seeds: '2' is given twice"));
        QVERIFY(!doc.study());
        QCOMPARE(parseSubmodelList("6, 3"), (std::vector<int>{1, 3, 6}));
    }
};

QTEST_MAIN(TestStudyPage)
#include "tst_study_page.moc"
