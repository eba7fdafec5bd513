#include "ui/core/host_run.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QList>
#include <map>

#include "core/error.h"
#include "io/json.h"
#include "ui/core/project_io.h"

namespace skynnet::ui {

QString skynnetCliProgram() {
    const QString chosen = qEnvironmentVariable("SKYNNET_CLI");
    if (!chosen.isEmpty()) return chosen;
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {here.filePath(QStringLiteral("skynnet-cli")), here.filePath(QStringLiteral("../cli/skynnet-cli"))})
        if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
    return QStringLiteral("skynnet-cli");
}

RunCommand hostRunCommand(const QString& projectCopy, const RunPlace& place, int threads, bool resume) {
    QStringList train = {QStringLiteral("train"), QStringLiteral("--project"), projectCopy,
                         QStringLiteral("--progress"), QStringLiteral("json")};
    if (place.onHosts)
        train << QStringLiteral("--backend") << QStringLiteral("mpi") << QStringLiteral("--hosts")
              << QString::fromStdString(place.hostfile) << QStringLiteral("--ranks") << QString::number(place.ranks);
    else if (threads > 0) train << QStringLiteral("--threads") << QString::number(threads);
    if (resume) train << QStringLiteral("--resume");
    return {skynnetCliProgram(), train};
}

QStringList mpiCheckArguments(const RunPlace& place) {
    QStringList a = {QStringLiteral("mpi-check")};
    if (!place.hostfile.empty()) a << QStringLiteral("--hosts") << QString::fromStdString(place.hostfile);
    a << QStringLiteral("--ranks") << QString::number(place.ranks) << QStringLiteral("--json");
    return a;
}

std::vector<RankInfo> parseMpiCheck(const QByteArray& output) {
    std::vector<RankInfo> ranks;
    int number = 0;
    for (const QByteArray& raw : output.split('\n')) {
        ++number;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty()) continue;
        const std::string source = "mpi-check output line " + std::to_string(number);
        const Json j = parseJson(std::string_view(line.constData(), std::size_t(line.size())), source);
        const JsonField f(j, source);
        RankInfo r;
        r.rank = f.at("rank").get<int>();
        r.host = QString::fromStdString(f.at("host").asString());
        r.cores = f.at("cores").get<int>();
        r.version = QString::fromStdString(f.value("version", ""));
        r.build = QString::fromStdString(f.value("build", ""));
        ranks.push_back(std::move(r));
    }
    return ranks;
}

QString describeRanks(const std::vector<RankInfo>& ranks) {
    QStringList hosts;
    std::map<QString, std::pair<QList<int>, int>> byHost;  // host -> ranks, cores
    for (const RankInfo& r : ranks) {
        auto& [list, cores] = byHost[r.host];
        if (list.isEmpty()) hosts.append(r.host);
        list.append(r.rank);
        cores = std::max(cores, r.cores);
    }
    QStringList lines;
    for (const QString& h : hosts) {
        const auto& [list, cores] = byHost[h];
        QStringList numbers;
        for (int n : list) numbers.append(QString::number(n));
        lines.append(QCoreApplication::translate("HostRun", "%1: rank%2 %3, %4 core(s)")
                         .arg(h, list.size() == 1 ? QString() : QStringLiteral("s"), numbers.join(QStringLiteral(", ")))
                         .arg(cores));
    }
    for (const RankInfo& r : ranks)
        if (r.version != ranks.front().version || r.build != ranks.front().build) {
            lines.append(
                QCoreApplication::translate("HostRun", "warning: %1 runs version %2 build %3, %4 runs %5 build %6")
                    .arg(r.host, r.version, r.build, ranks.front().host, ranks.front().version, ranks.front().build));
            break;
        }
    return lines.join(QLatin1Char('\n'));
}

void writeProjectCopy(const QString& path, const ProjectDocument& document, const TrainingSession& session) {
    ProjectData p = captureProject(document, session);
    p.runs.clear();  // the tool appends its run; the earlier ones (and their weights) are not its business
    saveProject(path.toStdString(), p);
}

}  // namespace skynnet::ui
