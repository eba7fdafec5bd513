// skynnet-soak: the app's project work, cycle after cycle, without widgets (soak_cycle.h), for a
// duration or a number of cycles, whichever ends first. Prints every N cycles the cycle, the time
// and the resident memory, and at the end the cycles done, the memory after cycle 100 against
// after the last, failures and temporary files found. --inject adds a full disk under a save and
// a killed training child every few cycles (soak_inject.h). Exit 1 on any failure.
//   QT_QPA_PLATFORM=offscreen skynnet-soak [--seconds S] [--cycles N] [--every N] [--inject]
//                                          [--dir FOLDER] [--seed N] [--keep]
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <cstdio>
#include <optional>

#include "soak_checks.h"
#include "soak_cycle.h"
#include "soak_fixture.h"
#include "soak_inject.h"

namespace {

double mib(long kib) { return double(kib) / 1024.0; }

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
#ifdef SKYNNET_CLI_PATH
    if (qEnvironmentVariableIsEmpty("SKYNNET_CLI")) qputenv("SKYNNET_CLI", SKYNNET_CLI_PATH);  // the child of --inject
#endif
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("skynnet-soak"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Cycles of open, edit, train, save, autosave, export, reopen."));
    parser.addHelpOption();
    const QCommandLineOption seconds(QStringLiteral("seconds"), QStringLiteral("Stop after S seconds (default 600)."),
                                     QStringLiteral("S"), QStringLiteral("600"));
    const QCommandLineOption cycles(QStringLiteral("cycles"), QStringLiteral("Stop after N cycles (default 1000)."),
                                    QStringLiteral("N"), QStringLiteral("1000"));
    const QCommandLineOption every(QStringLiteral("every"), QStringLiteral("Print a line every N cycles (default 10)."),
                                   QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption inject(QStringLiteral("inject"), QStringLiteral("Inject a full disk and a killed child."));
    const QCommandLineOption dir(QStringLiteral("dir"),
                                 QStringLiteral("Working folder (default: a new temporary one)."),
                                 QStringLiteral("FOLDER"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Seed of the random kill times (default 1)."),
                                  QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption keep(QStringLiteral("keep"), QStringLiteral("Keep the working folder."));
    parser.addOptions({seconds, cycles, every, inject, dir, seed, keep});
    parser.process(app);
    const double limitSeconds = parser.value(seconds).toDouble();
    const int limitCycles = parser.value(cycles).toInt(), printEvery = std::max(1, parser.value(every).toInt());
    const bool injecting = parser.isSet(inject);

    std::optional<QTemporaryDir> temporary;
    QString folder = parser.value(dir);
    if (folder.isEmpty()) {
        temporary.emplace(QDir::temp().filePath(QStringLiteral("skynnet-soak-XXXXXX")));
        temporary->setAutoRemove(!parser.isSet(keep));
        folder = temporary->path();
    } else if (!QDir(folder).isEmpty() || !QDir().mkpath(folder)) {
        std::fprintf(stderr, "--dir %s: must be an empty or a new folder\n", qPrintable(folder));
        return 2;
    }
    folder = QDir(folder).absolutePath();
    std::printf("skynnet-soak in %s: up to %d cycles or %.0f s%s\n", qPrintable(folder), limitCycles, limitSeconds,
                injecting ? ", injecting a full disk and a killed child" : "");

    int failures = 0;
    long rssAt100 = -1, rssLast = -1, rssFirst = -1;
    QElapsedTimer clock;
    clock.start();
    soak::Tally tally;
    {
        soak::Fixture f(folder, parser.value(seed).toUInt());
        if (injecting) soak::mountSmallDisk(f);
        try {
            soak::prepareBaseProject(f);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cannot make the base project: %s\n", e.what());
            return 1;
        } catch (const soak::Failure& e) {
            std::fprintf(stderr, "cannot make the base project: %s\n", qPrintable(e.what));
            return 1;
        }
        for (int cycle = 1; cycle <= limitCycles && clock.elapsed() < limitSeconds * 1000; ++cycle) {
            QString failure;
            try {
                soak::runCycle(f, cycle, injecting);
            } catch (const soak::Failure& e) {
                failure = e.what;
            } catch (const std::exception& e) {
                failure = QString::fromUtf8(e.what());
            }
            if (!failure.isEmpty()) {
                ++failures;
                std::printf("cycle %d FAILED: %s\n", cycle, qPrintable(failure));
                soak::recover(f);
            }
            f.tally().cycles = cycle;
            rssLast = soak::residentKiB();
            if (cycle == 1) rssFirst = rssLast;
            if (cycle == 100) rssAt100 = rssLast;
            if (cycle % printEvery == 0 || cycle == 1)
                std::printf("cycle %5d  elapsed %8.1f s  rss %8.1f MiB  failures %d\n", cycle, clock.elapsed() / 1000.0,
                            mib(rssLast), failures);
            std::fflush(stdout);
        }
        if (injecting) soak::unmountSmallDisk(f);
        tally = f.tally();
    }
    tally.failedCycles = failures;

    std::printf("\ncycles done         %d in %.1f s (%.2f s a cycle)\n", tally.cycles, clock.elapsed() / 1000.0,
                tally.cycles ? clock.elapsed() / 1000.0 / tally.cycles : 0.0);
    std::printf("rss after cycle 1   %.1f MiB\n", mib(rssFirst));
    if (rssAt100 > 0)
        std::printf("rss after cycle 100 %.1f MiB, after cycle %d %.1f MiB: %+.1f%%\n", mib(rssAt100), tally.cycles,
                    mib(rssLast), 100.0 * double(rssLast - rssAt100) / double(rssAt100));
    else
        std::printf("rss after cycle %d %.1f MiB (fewer than 100 cycles: no comparison)\n", tally.cycles, mib(rssLast));
    std::printf("failed cycles       %d\n", tally.failedCycles);
    std::printf("temporary files     %d\n", tally.tempFilesFound);
    std::printf("saved files opened  %d (projects, recovery files, copies)\n", tally.projectsOpened);
    std::printf("ONNX files checked  %d\n", tally.onnxChecked);
    std::printf("stops too late      %d (runs that completed before the stop reached them)\n", tally.stopsTooLate);
    if (injecting) {
        std::printf("full-disk saves     %d refused, previous file intact and opening after %d\n", tally.fullDiskSaves,
                    tally.previousIntact);
        std::printf("children killed     %d, their runs resumed to completion %d; kills too late (the run had ended or "
                    "was saved) %d\n",
                    tally.childrenKilled, tally.killedRunsResumed, tally.killsTooLate);
    }
    return failures == 0 && tally.tempFilesFound == 0 ? 0 : 1;
}
