#pragma once
// Which build of the program this process runs, so that ranks of one MPI job can refuse to work
// with a different one: a different build may split, train or round differently, and the
// combined model would silently mix them.
#include <string>

namespace skynnet {

// 16 hex digits: XXH64 of this process's own executable (/proc/self/exe), computed once. Two
// machines agree exactly when they run the same binary (a copy, or a reproducible build with the
// same compiler and flags); "unknown" where the executable cannot be read.
const std::string& buildId();

}  // namespace skynnet
