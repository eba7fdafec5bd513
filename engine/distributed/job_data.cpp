#include "distributed/job_data.h"

#include "distributed/host_rows.h"
#include "distributed/mpi_session.h"
#include "io/json.h"

namespace skynnet {

std::vector<DataFileCheck> workerDataFiles(const RunData& data) {
    RunData read = data;
    read.test.reset();  // DataUse::Submodels reads no test file
    std::vector<DataFileCheck> files;
    for (const std::string& path : filesRead(read)) files.push_back({path, fileFingerprint(path)});
    return files;
}

WorkerData prepareWorkerData(MpiSession& s, const RunData& data) {
    PreparedData p = prepareRunData(data, DataUse::Submodels);
    WorkerData d;
    d.train = std::move(p.train);
    if (p.validation.size() > 0) d.validation = std::move(p.validation);
    s.trace("data prepared (" + std::to_string(d.train.size()) + " training rows)");
    return d;
}

void sendDataAhead(MpiSession& s, const RunData& data, bool shareData) {
    const std::string text = dumpJson(Json::object({{"data", toJson(data)}, {"shareData", shareData}}));
    for (int r = 1; r < s.size(); ++r) s.send(r, TagDataAhead, text);
}

std::optional<DataAhead> prepareDataAhead(MpiSession& s, const MpiMessage& message) {
    DataAhead ahead;
    bool shareData = true;
    try {
        const Json doc = parseMessage(message.bytes, "MPI data ahead");
        const JsonField j(doc, "MPI data ahead");
        ahead.data = runDataFromJson(j.at("data"));
        shareData = j.at("shareData").asBool();
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (!preparesOwnRows(s, shareData)) return ahead;  // this host's copy is another rank's to prepare
    try {
        ahead.rows = prepareWorkerData(s, ahead.data);
    } catch (const std::exception&) {
        ahead.error = std::current_exception();
    }
    return ahead;
}

}  // namespace skynnet
