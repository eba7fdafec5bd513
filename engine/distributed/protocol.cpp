#include "distributed/protocol.h"

#include "core/error.h"
#include "distributed/mpi_session.h"
#include "project/project_json.h"

namespace skynnet {

EncodedJob encodeJob(const MpiJob& job) {
    BlockWriter writer;
    Json files = Json::array();
    for (const DataFileCheck& f : job.dataFiles)
        files.push_back(Json::object({{"path", f.path},
                                      {"size", unsignedToJson(f.fingerprint.size)},
                                      {"hash", unsignedToJson(f.fingerprint.hash)}}));
    Json j = Json::object({{"version", job.version},
                           {"build", job.build},
                           {"host", job.host},
                           {"data", toJson(job.data)},
                           {"dataFiles", std::move(files)},
                           {"config", toJson(job.config)},
                           {"plan", toJson(job.plan, writer)},
                           {"threads", job.threads},
                           {"shipData", job.shipData},
                           {"shareData", job.shareData}});
    if (!job.checkpointFolder.empty())
        j["checkpoint"] = Json::object({{"folder", job.checkpointFolder}, {"key", toJson(job.checkpointKey)}});
    EncodedJob out;
    Json sizes = Json::array();
    for (const auto& block : writer.blocks()) {
        sizes.push_back(block.size());
        out.blocks.insert(out.blocks.end(), block.begin(), block.end());
    }
    j["blockSizes"] = std::move(sizes);
    out.json = dumpJson(j);
    return out;
}

MpiJob decodeJob(const std::string& json, const std::string& blockBytes) {
    const Json doc = parseMessage(json, "MPI job");
    const JsonField j(doc, "MPI job");
    MpiJob job;
    job.version = j.at("version").asString();
    job.build = j.at("build").asString();
    job.host = j.at("host").asString();
    job.data = runDataFromJson(j.at("data"));
    for (const JsonField& f : j.at("dataFiles").asArray())
        job.dataFiles.push_back(
            {f.at("path").asString(), {unsignedFromJson(f.at("size")), unsignedFromJson(f.at("hash"))}});
    job.config = trainConfigFromJson(j.at("config"));
    job.threads = j.at("threads").asInt();
    job.shipData = j.at("shipData").asBool();
    job.shareData = j.at("shareData").asBool();
    if (j.contains("checkpoint")) {
        job.checkpointFolder = j.at("checkpoint").at("folder").asString();
        job.checkpointKey = checkpointRunKeyFromJson(j.at("checkpoint").at("key"));
    }

    const std::vector<float> all = floatsFromBytes(blockBytes);
    std::vector<std::vector<float>> blocks;
    std::size_t at = 0;
    for (const JsonField& size : j.at("blockSizes").asArray()) {
        const std::size_t n = size.get<std::size_t>();
        if (n > all.size() - at) size.fail("runs past the job's " + std::to_string(all.size()) + " floats");
        blocks.emplace_back(all.begin() + std::ptrdiff_t(at), all.begin() + std::ptrdiff_t(at + n));
        at += n;
    }
    BlockReader reader(std::move(blocks));
    job.plan = splitPlanFromJson(j.at("plan"), reader);
    return job;
}

Json parseMessage(const std::string& bytes, const char* what) { return parseJson(bytes, what); }

}  // namespace skynnet
