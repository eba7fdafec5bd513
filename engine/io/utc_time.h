#pragma once
// The moment as files record it: "2026-12-07T01:02:03Z" (UTC, whole seconds).
#include <string>

namespace skynnet {

std::string isoUtcNow();

}  // namespace skynnet
