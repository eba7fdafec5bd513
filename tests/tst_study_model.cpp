// The study's model in the engine (engine/study/), without running anything: the configurations
// and the run list, the setup a rerun must match, the resume rule on hand-written run files, the
// machine schedule, the summary of a worked example with its t interval computed by hand, and the
// CSV and Markdown of a tiny study, text for text.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "core/error.h"
#include "io/atomic_file.h"
#include "study/machine_schedule.h"
#include "study/study_outputs.h"
#include "study/study_progress.h"
#include "study/study_summary.h"

#include "test_support.h"

using namespace skynnet;

namespace {

StudyPlan planOf(std::vector<int> submodels, std::vector<std::uint64_t> seeds, bool ensemble) {
    StudyPlan p;
    p.submodels = std::move(submodels);
    p.seeds = std::move(seeds);
    p.ensemble = ensemble;
    return p;
}

std::vector<std::string> namesOf(const std::vector<StudyConfig>& configs) {
    std::vector<std::string> names;
    for (const StudyConfig& c : configs) names.push_back(c.name());
    return names;
}

// A finished run with the figures the summary reads.
StudyRun finished(const StudyConfig& config, std::uint64_t seed, double metric, double wall,
                  std::vector<double> submodelSeconds) {
    StudyRun r;
    r.spec = StudyRunSpec{config, seed};
    r.finished = true;
    r.S = config.submodels;
    r.strategy = config.original() ? "original" : "class-groups";
    r.metricName = "accuracy";
    r.metric = metric;
    r.wallSeconds = wall;
    r.submodelSeconds = std::move(submodelSeconds);
    r.trainSeconds = r.slowestSubmodelSeconds = *std::max_element(r.submodelSeconds.begin(), r.submodelSeconds.end());
    return r;
}

// The worked example: N1 and N3 (class groups) on seeds 1, 2, 3, K = 2 machines.
//   N1: accuracy 0.90, 0.88, 0.92 (mean 0.90, sd 0.02); wall 10, 12, 14 s; one submodel of 9, 11, 13 s.
//   N3: accuracy 0.89, 0.88, 0.90 (mean 0.89, sd 0.01); wall 5, 6, 7 s; submodels [4,1,1], [4,2,1], [5,1,1] s,
//       on 2 machines longest first 4, 4 and 5 s (mean 13/3).
//   Paired differences N3 - N1: -0.01, 0, -0.02: mean -0.01, sd 0.01, t(0.975, 2) = 4.302653,
//   half width 4.302653 * 0.01 / sqrt(3) = 0.0248414: [-0.0348414, 0.0148414].
//   Threshold 0.90 - 0.02 = 0.88: N3 (0.89) is within it, and the fastest both ways.
struct WorkedExample {
    StudyPlan plan = planOf({1, 3}, {1, 2, 3}, false);
    std::vector<StudyRun> runs;
    WorkedExample() {
        const StudyConfig n1{}, n3{3, "", ""};
        const double n1Metric[] = {0.90, 0.88, 0.92}, n3Metric[] = {0.89, 0.88, 0.90};
        const std::vector<std::vector<double>> n3Submodels = {{4, 1, 1}, {4, 2, 1}, {5, 1, 1}};
        for (int i = 0; i < 3; ++i) {
            const std::uint64_t seed = std::uint64_t(i + 1);
            StudyRun a = finished(n1, seed, n1Metric[i], 10 + 2 * i, {9.0 + 2 * i});
            a.cpuSeconds = 20;
            a.peakMemoryBytes = 1 << 20;
            a.params = 100;
            a.flopsPerSample = 200;
            a.latencySeconds = 0.001;
            StudyRun b = finished(n3, seed, n3Metric[i], 5 + i, n3Submodels[std::size_t(i)]);
            b.cpuSeconds = 10 + 2 * i;
            b.peakMemoryBytes = 3 << 20;
            b.params = 300;
            b.flopsPerSample = 1500000;
            b.latencySeconds = 0.001 * double(i == 0 ? 2 : i == 1 ? 1 : 3);
            runs.push_back(a);
            runs.push_back(b);
        }
    }
};

void write(const QString& path, const std::string& text) { writeFileAtomically(path.toStdString(), text); }

// A train report of the original (N=1), as `skynnet-cli train --report` writes its fields.
std::string originalReport(double accuracy, double wall) {
    return dumpJson(Json::object({{"metric", "accuracy"},
                                  {"test_accuracy", accuracy},
                                  {"wall_seconds", wall},
                                  {"train_seconds", wall - 0.5},
                                  {"cpu_seconds", 2 * wall},
                                  {"peak_memory_bytes", 5000000},
                                  {"peak_training_bytes", 1000000}}));
}

}  // namespace

class TestStudyModel : public QObject {
    Q_OBJECT

private slots:
    // The original first; per N each strategy and epoch choice, the ensemble last; seed by seed.
    void configurationsAndRunList() {
        StudyPlan p = planOf({1, 3, 6}, {7, 8}, true);
        p.strategies = {"", "class-groups"};
        p.scaleEpochs = {"on", "off"};
        QCOMPARE(namesOf(p.configs()),
                 (std::vector<std::string>{"N1", "N3-scale-on", "N3-scale-off", "N3-class-groups-scale-on",
                                           "N3-class-groups-scale-off", "N3-ensemble-scale-on", "N3-ensemble-scale-off",
                                           "N6-scale-on", "N6-scale-off", "N6-class-groups-scale-on",
                                           "N6-class-groups-scale-off", "N6-ensemble-scale-on",
                                           "N6-ensemble-scale-off"}));
        const std::vector<StudyRunSpec> runs = p.runs();
        QCOMPARE(int(runs.size()), 26);
        QCOMPARE(runs[0].name(), std::string("N1-seed7"));
        QCOMPARE(runs[12].name(), std::string("N6-ensemble-scale-off-seed7"));
        QCOMPARE(runs[13].name(), std::string("N1-seed8"));  // every configuration of a seed before the next seed

        // The ensemble is not added twice when listed, nor at all without it.
        StudyPlan listed = planOf({1, 2}, {1}, true);
        listed.strategies = {"ensemble"};
        QCOMPARE(namesOf(listed.configs()), (std::vector<std::string>{"N1", "N2-ensemble"}));
        QCOMPARE(namesOf(planOf({1, 2}, {1}, false).configs()), (std::vector<std::string>{"N1", "N2"}));
        QCOMPARE(StudyConfig{}.strategyText(), std::string("original"));
        QCOMPARE((StudyConfig{2, "", ""}.strategyText()), std::string("auto"));

        // The "other" output on and off, and the sqrt epochs: every split but the ensemble (not
        // class groups) gets each share.
        StudyPlan other = planOf({1, 3}, {1}, true);
        other.strategies = {"class-groups"};
        other.scaleEpochs = {"sqrt"};
        other.otherShares = {"0", "0.3"};
        QCOMPARE(namesOf(other.configs()),
                 (std::vector<std::string>{"N1", "N3-class-groups-scale-sqrt-other-0",
                                           "N3-class-groups-scale-sqrt-other-0.3", "N3-ensemble-scale-sqrt"}));
    }

    // The recorded setup continues only the same study; each difference named as the options say it.
    void setupDifferences() {
        StudyPlan here = planOf({1, 3}, {1, 2}, true);
        here.trainWords = {"--data", "x.csv", "--epochs", "3"};
        const Json recorded = here.setupJson();
        QCOMPARE(recorded.at("strategies"), Json::array({"auto"}));
        QCOMPARE(recorded.at("scale_epochs"), Json::array({"default"}));
        QVERIFY(!recorded.contains("other_shares"));  // as studies recorded before the list
        QVERIFY(studySetupDifferences(recorded, here).empty());
        StudyPlan shares = here;
        shares.otherShares = {"0", "0.3"};
        QCOMPARE(studySetupDifferences(recorded, shares),
                 (std::vector<std::string>{"--other-share: nothing there, 0,0.3 here"}));
        QVERIFY(studySetupDifferences(shares.setupJson(), shares).empty());

        StudyPlan other = here;
        other.seeds = {1};
        other.ensemble = false;
        other.trainWords = {"--data", "x.csv", "--epochs", "4"};
        QCOMPARE(studySetupDifferences(recorded, other),
                 (std::vector<std::string>{"the train options: --data x.csv --epochs 3 there, --data x.csv --epochs 4 "
                                           "here",
                                           "--seeds: 1,2 there, 1 here",
                                           "--no-ensemble: with the ensemble there, without the ensemble here"}));
        StudyPlan onProject = here;
        onProject.project = Json::object({{"project", "/p.skynnet"}});
        QCOMPARE(studySetupDifferences(recorded, onProject).front(),
                 std::string("--project: a study of train options there, of a project here"));
        QCOMPARE(studySetupDifferences(onProject.setupJson(), here).front(),
                 std::string("--project: a study of a project there, of train options here"));
        StudyPlan changed = onProject;
        changed.project["network"] = "wider";
        QCOMPARE(studySetupDifferences(onProject.setupJson(), changed),
                 (std::vector<std::string>{"--project: the project's path, data, network, split or training differ"}));
    }

    // The resume rule: a run whose report and model are in DIR/runs is read back and not run
    // again; a report without its model is not a finished run; a report that cannot be read runs
    // again, named.
    void resumeRule() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        QDir().mkpath(dir.filePath("runs"));
        StudyProgress progress(planOf({1, 3}, {1, 2}, false), folder);
        QCOMPARE(progress.total(), 4);
        const StudyRunFiles first = progress.files(0);
        QCOMPARE(first.report, folder + "/runs/N1-seed1.json");
        QCOMPARE(first.model, folder + "/runs/N1-seed1.skym");
        QCOMPARE(first.log, folder + "/runs/N1-seed1.log");
        QCOMPARE(first.project, folder + "/runs/N1-seed1.skynnet");

        write(QString::fromStdString(first.report), originalReport(0.875, 3.0));
        write(QString::fromStdString(first.model), "model");
        write(QString::fromStdString(progress.files(1).report), "{}");         // N3-seed1: its model missing
        write(QString::fromStdString(progress.files(2).report), "{not json");  // N1-seed2: unreadable
        write(QString::fromStdString(progress.files(2).model), "model");
        const auto again = progress.resume();
        QCOMPARE(int(again.size()), 1);
        QCOMPARE(again[0].first, std::string("N1-seed2"));
        VERIFY_CONTAINS(again[0].second, "runs/N1-seed2.json");
        QVERIFY(!progress.pending(0));
        QVERIFY(progress.pending(1) && progress.pending(2) && progress.pending(3));
        QCOMPARE(progress.reused(), 1);
        QCOMPARE(progress.finished(), 1);
        const StudyRun& reused = progress.runs()[0];
        QVERIFY(reused.finished && reused.reused);
        QCOMPARE(reused.metric, 0.875);
        QCOMPARE(reused.strategy, std::string("original"));
        QCOMPARE(reused.submodelSeconds, std::vector<double>{2.5});
        QCOMPARE(reused.peakMemoryBytes, std::int64_t(1000000));
        QCOMPARE(progress.runListJson()[0].at("done"), Json(true));
        QCOMPARE(progress.runListJson()[1].at("done"), Json(false));
        QCOMPARE(progress.runListJson()[1].at("strategy"), Json("auto"));

        // The time left: N1-seed2 like N1's finished run, the N3 runs like the finished runs on average.
        QCOMPARE(*progress.remainingSeconds(), 9.0);
        StudyRun failed;
        failed.error = "exit status 1";
        progress.record(1, failed);
        QCOMPARE(progress.failed().size(), std::size_t(1));
        QCOMPARE(progress.failed()[0]->spec.name(), std::string("N3-seed1"));
        QCOMPARE(*progress.remainingSeconds(), 6.0);
        QVERIFY(!StudyProgress(planOf({1}, {1}, false), folder + "/elsewhere").remainingSeconds());
    }

    // Longest first on K machines; K >= S: the slowest; no clamp below one machine.
    void machineSchedule() {
        QCOMPARE(machinesSeconds({4, 1, 1}, 1), 6.0);
        QCOMPARE(machinesSeconds({4, 1, 1}, 2), 4.0);
        QCOMPARE(machinesSeconds({1, 2, 4, 3}, 2), 5.0);     // 4+1 | 3+2
        QCOMPARE(machinesSeconds({3, 3, 2, 2, 2}, 2), 7.0);  // longest first: 3+2+2 | 3+2 (not the optimum 6)
        QCOMPARE(machinesSeconds({1.5, 1, 1, 1, 1, 1}, 6), 1.5);
        QCOMPARE(machinesSeconds({}, 3), 0.0);
        QCOMPARE(errorOf([] {
                     machinesSeconds({1, 2}, 0);
                 }),
                 std::string("machinesSeconds: at least 1 machine, got 0"));
    }

    void summaryWorkedExample() {
        const WorkedExample w;
        const StudySummary s = summarizeStudy(w.runs, w.plan, 2);
        QCOMPARE(int(s.configs.size()), 2);
        QCOMPARE(s.metricName, std::string("accuracy"));
        const ConfigSummary& n1 = s.configs[0];
        const ConfigSummary& n3 = s.configs[1];
        QCOMPARE(originalOf(s), &n1);
        QVERIFY(std::fabs(n1.metricMean - 0.90) < 1e-12 && std::fabs(*n1.metricStdDev - 0.02) < 1e-12);
        QVERIFY(!n1.difference);
        QCOMPARE(n1.wallSeconds, 12.0);
        QCOMPARE(*n1.wallStdDev, 2.0);
        QCOMPARE(n1.machinesSeconds, 11.0);
        QVERIFY(std::fabs(n3.metricMean - 0.89) < 1e-12 && std::fabs(*n3.metricStdDev - 0.01) < 1e-12);
        QCOMPARE(n3.runs, 3);
        QCOMPARE(n3.S, 3);
        QVERIFY(std::fabs(n3.machinesSeconds - 13.0 / 3) < 1e-12);
        QVERIFY(std::fabs(n3.slowestSubmodelSeconds - 13.0 / 3) < 1e-12);
        QCOMPARE(n3.peakMemoryBytes, std::int64_t(3 << 20));
        QCOMPARE(*n3.latencySeconds, 0.002);  // the median
        QVERIFY(n3.difference && n3.difference->interval);
        const PairedDifference& d = *n3.difference;
        QCOMPARE(d.pairs, 3);
        QVERIFY(std::fabs(d.mean + 0.01) < 1e-12);
        QVERIFY(std::fabs(d.interval->stdDev - 0.01) < 1e-12);
        QVERIFY(std::fabs(d.interval->halfWidth - 0.0248414) < 1e-6);
        QVERIFY(std::fabs(d.interval->low() + 0.0348414) < 1e-6);
        QVERIFY(std::fabs(d.interval->high() - 0.0148414) < 1e-6);
        QVERIFY(std::fabs(*s.threshold - 0.88) < 1e-12);
        QVERIFY(s.thisMachine && s.onMachines);
        QCOMPARE(s.thisMachine->config, std::string("N3"));
        QCOMPARE(s.thisMachine->seconds, 6.0);
        QCOMPARE(s.onMachines->config, std::string("N3"));
        QVERIFY(std::fabs(s.onMachines->seconds - 13.0 / 3) < 1e-12);

        const Json j = summaryJson(s);
        QCOMPARE(j.at("configurations").size(), std::size_t(2));
        QVERIFY(j.at("configurations")[0].at("difference").is_null());
        QVERIFY(std::fabs(j.at("configurations")[1].at("difference").at("ci95_low").get<double>() + 0.0348414) < 1e-6);
        QCOMPARE(j.at("recommendation").at("machines"), Json(2));

        // A failed run counts for nothing; without the original there is no recommendation.
        std::vector<StudyRun> withoutOriginal;
        for (const StudyRun& r : w.runs)
            if (!r.spec.config.original()) withoutOriginal.push_back(r);
        withoutOriginal[0].finished = false;
        const StudySummary none = summarizeStudy(withoutOriginal, w.plan, 2);
        QCOMPARE(none.configs[0].runs, 2);
        QVERIFY(!none.configs[0].difference);
        QVERIFY(!none.threshold && !none.thisMachine && !none.onMachines);
        QCOMPARE(recommendationText(none),
                 std::string("No recommendation: no run of the original model (N=1) finished.\n"));
    }

    // The recommendation rule alone: the bar, the shortest time within it, unknown times skipped.
    void recommendationRule() {
        QCOMPARE(recommendationThreshold(0.9, 0.02), 0.9 - 0.02);
        QCOMPARE(recommendationThreshold(0.9, std::nullopt), 0.9);
        const std::vector<RecommendationCandidate> c = {{"N1", 1, "original", 0.90, 10.0},
                                                        {"N3", 3, "class-groups", 0.89, 5.0},
                                                        {"N3-ensemble", 3, "ensemble", 0.85, 1.0},
                                                        {"N6", 6, "class-groups", 0.95, std::nullopt},
                                                        {"N9", 9, "class-groups", 0.89, 5.0}};
        const auto best = fastestWithin(c, 0.88);
        QVERIFY(best);
        QCOMPARE(best->config, std::string("N3"));  // the first of equal times
        QCOMPARE(best->seconds, 5.0);
        QVERIFY(!fastestWithin(c, 0.99));
    }

    void csvOfATinyStudy() {
        StudyRun ok = finished(StudyConfig{}, 1, 0.9, 2.5, {2.0});
        ok.cpuSeconds = 4;
        ok.peakMemoryBytes = 1048576;
        ok.processPeakMemoryBytes = 2097152;
        ok.params = 100;
        ok.flopsPerSample = 200;
        ok.latencySeconds = 0.00125;
        StudyRun bad;
        bad.spec = StudyRunSpec{StudyConfig{3, "", ""}, 1};
        bad.error = "exit status 1: bad, \"quoted\"";
        QCOMPARE(studyCsv({ok, bad}, 1),
                 std::string("run,config,submodels,S,seed,strategy,scale_epochs,status,metric_name,metric,wall_seconds,"
                             "train_seconds,"
                             "slowest_submodel_seconds,machines_seconds,cpu_seconds,peak_memory_bytes,process_peak_"
                             "memory_bytes,params,"
                             "flops_per_sample,latency_seconds_per_batch,error\n"
                             "N1-seed1,N1,1,1,1,original,off,finished,accuracy,0.9,2.5,2,2,2,4,1048576,2097152,100,200,"
                             "0.00125,\n"
                             "N3-seed1,N3,3,,1,,,failed,,,,,,,,,,,,,\"exit status 1: bad, \"\"quoted\"\"\"\n"));
        const Json failedRun = runJson(bad, 1);
        QCOMPARE(failedRun.at("status"), Json("failed"));
        QCOMPARE(failedRun.at("strategy"), Json("auto"));
        QVERIFY(!failedRun.contains("metric"));
    }

    void markdownOfTheWorkedExample() {
        const WorkedExample w;
        const StudySummary s = summarizeStudy(w.runs, w.plan, 2);
        const std::string md = studyMarkdown(s, "skynnet-cli study --submodels 3");
        VERIFY_CONTAINS(md, "# Split study\n\n```\nskynnet-cli study --submodels 3\n```\n\n");
        VERIFY_CONTAINS(md, "| configuration | N | S | strategy | epochs scaled | runs | accuracy mean | sd | "
                            "difference [95% CI] | wall s |"
                            " slowest submodel s | on 2 machines s | cpu s | peak memory | params | MFLOP/sample | ms "
                            "per 128 rows |\n"
                            "| --- | ---: | ---: | --- | ---: |");
        VERIFY_CONTAINS(md, "| N1 | 1 | 1 | original | - | 3 | 0.9000 | 0.0200 | (the original) | 12.00 | 11.00 | "
                            "11.00 | 20.00 | 1 MB |"
                            " 100 | 0.0002 | 1 |\n");
        VERIFY_CONTAINS(md, "| N3 | 3 | 3 | class-groups | no | 3 | 0.8900 | 0.0100 | -0.0100 [-0.0348, +0.0148] | "
                            "6.00 | 4.33 | 4.33 |"
                            " 12.00 | 3 MB | 300 | 1.5 | 2 |\n");
        VERIFY_CONTAINS(md, "\nOriginal: accuracy 0.9000 +- 0.0200 (standard deviation over the seeds).\n"
                            "Recommended, the shortest time with a mean accuracy of at least 0.8800:\n"
                            "  on this machine: N3 (class-groups), 6.00 s wall, 0.8900\n"
                            "  on 2 machines: N3 (class-groups), 4.33 s for the submodels scheduled longest first, "
                            "0.8900\n");
        const Json doc = studyJson(w.runs, s, w.plan, StudyOrigin{"skynnet-cli", "0.1.0", "skynnet-cli study"});
        QCOMPARE(doc.at("runs").size(), std::size_t(6));
        QCOMPARE(doc.at("runs")[1].at("machines_seconds"), Json(4.0));
        QCOMPARE(doc.at("options"), w.plan.setupJson());
        QCOMPARE(doc.at("latency_batch_rows"), Json(128));
    }
};

QTEST_GUILESS_MAIN(TestStudyModel)
#include "tst_study_model.moc"
