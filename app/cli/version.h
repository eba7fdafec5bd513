#pragma once
// The tool's version, shown by --version and written into reports. Keep in step with
// project(Skynnet VERSION ...) in the top-level CMakeLists.txt.
namespace skynnet::cli {

inline constexpr const char* skynnetVersion = "0.1.0";

}  // namespace skynnet::cli
