#include "data_request.h"

#include "core/error.h"

namespace skynnet::cli {

DataRequest dataRequest(const Args& args, const DataOptionNames& names) {
    DataRequest r;
    r.option = names.path;
    r.path = args.required(names.path);
    r.labels = args.text(names.labels, "");
    r.target = args.text(names.target, "");
    r.labelsOption = names.labels;
    r.targetOption = names.target;
    return r;
}

void checkRequestUsage(const DataRequest& request) {
    try {
        checkDataRequest(request);
    } catch (const Error& e) {
        throw UsageError(e.what());
    }
}

}  // namespace skynnet::cli
