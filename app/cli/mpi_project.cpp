#include "mpi_project.h"

#include "core/error.h"
#include "mpi_train.h"

#ifdef SKYNNET_HAVE_MPI
#include <memory>

#include "commands.h"
#include "data/idx_loader.h"
#include "distributed/build_id.h"
#include "distributed/mpi_backend.h"
#include "distributed/mpi_session.h"
#include "mpi_worker_release.h"
#include "distributed/mpi_worker.h"
#include "project_data.h"
#include "version.h"
#endif

namespace skynnet::cli {

#ifndef SKYNNET_HAVE_MPI

int runMpiProject(const std::string&, int, const std::function<int(const SplitBackend&)>&) { throw Error(noMpiBackend); }

#else

namespace {

// Every file the project's data preparation reads, with its content's fingerprint: a worker whose
// copy differs refuses the job, naming its host. Generators ("builtin:") read none.
std::vector<DataFileCheck> projectDataFiles(const ProjectDataSource& d) {
    std::vector<DataFileCheck> files;
    for (const ProjectDataFile* f : {&d.train, &d.trainLabels, &d.test, &d.testLabels}) {
        if (f->path.empty() || dataKind(f->path) == DataKind::Builtin) continue;
        files.push_back({f->path, fileFingerprint(f->path)});
    }
    if (dataKind(d.train.path) == DataKind::Idx && d.trainLabels.path.empty())
        files.push_back({idxLabelsPathFor(d.train.path), fileFingerprint(idxLabelsPathFor(d.train.path))});
    return files;
}

WorkerData prepareProjectWorkerData(const MpiJob& job) {
    const JsonField options(job.options, "MPI job");
    const ProjectData p = loadProject(options.at("project").asString());
    PreparedData data = prepareProjectData(p.data);
    WorkerData d;
    d.train = std::move(data.train);
    if (data.validation.size() > 0) d.validation = std::move(data.validation);
    return d;
}

}  // namespace

int runMpiProject(const std::string& projectPath, int threads, const std::function<int(const SplitBackend&)>& train) {
    MpiSession session;
    if (session.rank() > 0) {
        runMpiWorker(session, skynnetVersion, prepareProjectWorkerData);
        return exitOk;
    }
    WorkerRelease release{session};
    MpiJob job = rank0Job(session, Json::object({{"project", projectPath}}));
    job.dataFiles = projectDataFiles(loadProject(projectPath).data);
    job.threads = threads;
    const SplitBackend choice = rank0Backend(session, std::move(job));
    return train(choice);
}

#endif

}  // namespace skynnet::cli
