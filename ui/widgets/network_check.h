#pragma once
// What is wrong with the designed network before anything trains: errors that would make
// training fail, and warnings about designs that train but defeat the split.
#include <QStringList>
#include <cstdint>

namespace skynnet::ui {

class ProjectDocument;

struct NetworkCheck {
    QStringList errors;    // training must not start
    QStringList warnings;  // allowed, but probably not meant
};

NetworkCheck checkNetwork(const ProjectDocument& document);

// Memory the OS could give this process now (MemAvailable); 0 when unknown.
std::int64_t availableMemoryBytes();

}  // namespace skynnet::ui
