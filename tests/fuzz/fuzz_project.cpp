// The project reader; the checksum is made to match. A project that loads is saved again and
// must load back: the engine must read whatever it writes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "fuzz_support.h"
#include "project/project_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace skynnet;
    const std::string path = fuzz::writeInput("project.skynnet", fuzz::withValidChecksum(fuzz::asText(data, size)));
    ProjectData project;
    try {
        project = loadProject(path);
    } catch (const Error& e) {
        fuzz::rejected(e);
        return 0;
    }
    const std::string copy = fuzz::tempPath("resaved-project.skynnet");
    try {
        saveProject(copy, project);
    } catch (const Error& e) {
        fuzz::rejected(e);
        return 0;  // some loaded values may be refused on saving (the message names the field)
    }
    try {
        loadProject(copy);
    } catch (const Error& e) {
        std::fprintf(stderr, "a project that loaded, saved again, does not load: %s\n", e.what());
        std::abort();
    }
    return 0;
}
