#include "distributed/mpi_hello.h"

#include "core/parallel.h"
#include "distributed/build_id.h"
#include "distributed/mpi_session.h"
#include "distributed/protocol.h"

namespace skynnet {

std::vector<Json> mpiHello(MpiSession& s, const std::string& version) {
    const Json mine = Json::object({{"rank", s.rank()},
                                    {"host", s.host()},
                                    {"cores", hardwareThreads()},
                                    {"version", version},
                                    {"build", buildId()}});
    if (s.rank() > 0) {
        s.send(0, TagHello, dumpJson(mine));
        return {};
    }
    std::vector<Json> all(std::size_t(s.size()));
    all[0] = mine;
    for (int r = 1; r < s.size(); ++r) all[std::size_t(r)] = parseMessage(s.receive(r, TagHello).bytes, "MPI hello");
    return all;
}

}  // namespace skynnet
