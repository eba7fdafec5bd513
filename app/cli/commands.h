#pragma once
// The sub-commands of skynnet-cli. Each takes the words after its name and returns the process
// exit status; errors are thrown (UsageError: status 2, skynnet::Error: status 1) and reported
// by main() as one line on stderr.
#include <string>
#include <vector>

namespace skynnet::cli {

inline constexpr int exitOk = 0;
inline constexpr int exitFailure = 1;        // bad data, model or file
inline constexpr int exitUsage = 2;          // bad command line
inline constexpr int exitInterrupted = 130;  // SIGINT, as shells report it

int runTrain(const std::vector<std::string>& args);
int runEvaluate(const std::vector<std::string>& args);
int runPredict(const std::vector<std::string>& args);
int runPlan(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runMpiCheck(const std::vector<std::string>& args);
int runStudy(const std::vector<std::string>& args);
int runTune(const std::vector<std::string>& args);

// "skynnet-cli: <message>" on stderr, on one line whatever the message holds.
void printError(const std::string& message);

}  // namespace skynnet::cli
