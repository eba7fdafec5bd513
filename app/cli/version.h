#pragma once
// The tool's version, from project(Skynnet VERSION ...) in the top-level CMakeLists.txt through the
// configured skynnet_version.h; named here in skynnet::cli, where the commands use it.
#include "skynnet_version.h"

namespace skynnet::cli {

using skynnet::skynnetVersion;

}  // namespace skynnet::cli
