#pragma once
// Training on the machines of a hostfile, the app's side: the app holds no MPI code. It saves a
// copy of the project, runs `skynnet-cli train --project COPY --backend mpi --hosts F --ranks K
// --progress json` (which starts mpirun) through TrainingSession::startCommand, and reads the
// trained run back from the copy.
// `skynnet-cli mpi-check` lists the machines beforehand.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

#include "project/project_file.h"

namespace skynnet::ui {

class ProjectDocument;
class TrainingSession;

// The skynnet-cli the app runs: $SKYNNET_CLI if set, else the one beside the app's executable,
// else the build tree's (../cli/skynnet-cli from app/gui), else "skynnet-cli" from PATH.
QString skynnetCliProgram();

// How to train the project copy: `skynnet-cli train --project COPY --progress json`, with
// place.onHosts `--backend mpi --hosts F --ranks K`, so that the tool starts mpirun itself and,
// when a rank dies, names its host and the submodel it trained (which only the launching side
// can tell: Open MPI then ends every rank); without, the thread backend (a run the app watches
// from outside), with --threads when threads > 0 (on the hosts every rank takes its host's share).
// resume adds --resume.
struct RunCommand {
    QString program;
    QStringList arguments;
};
RunCommand hostRunCommand(const QString& projectCopy, const RunPlace& place, int threads, bool resume);
// `mpi-check --hosts F --ranks K --json`.
QStringList mpiCheckArguments(const RunPlace& place);

// One line of `mpi-check --json`: {"rank":0,"host":"vm","cores":2,"version":"0.1.0","build":"..."}.
struct RankInfo {
    int rank = 0;
    QString host;
    int cores = 0;
    QString version, build;
};
// Every line of the check's stdout; throws Error naming the line that is not such an object.
std::vector<RankInfo> parseMpiCheck(const QByteArray& output);
// "vm: ranks 0-2, 2 cores" per host, one per line, in rank order of first appearance; a warning
// line when the ranks report different versions or builds.
QString describeRanks(const std::vector<RankInfo>& ranks);

// Saves what the tool needs to train (data reference, network, split and training settings; no
// earlier runs) to `path`, atomically. Throws Error naming the path.
void writeProjectCopy(const QString& path, const ProjectDocument& document, const TrainingSession& session);

}  // namespace skynnet::ui
