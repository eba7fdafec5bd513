#include "distributed/build_id.h"

#include <cstdio>

#include "core/error.h"
#include "project/data_reference.h"

namespace skynnet {

const std::string& buildId() {
    static const std::string id = [] {
        try {
            char hex[17];
            std::snprintf(hex, sizeof hex, "%016llx",
                          static_cast<unsigned long long>(fileFingerprint("/proc/self/exe").hash));
            return std::string(hex);
        } catch (const Error&) {
            return std::string("unknown");
        }
    }();
    return id;
}

}  // namespace skynnet
