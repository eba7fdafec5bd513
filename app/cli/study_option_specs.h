#pragma once
// The option table of `skynnet-cli study` (study_options.h): its own options, the train options
// it refuses (the study sets them for each run itself) and the train options it passes on.
#include <map>
#include <string>
#include <vector>

#include "cli_args.h"

namespace skynnet::cli {

const std::vector<OptionSpec>& studyOwnSpecs();
// Option name -> why the study refuses it.
const std::map<std::string, std::string>& studyRefusedOptions();
// Its own options, then every train option it passes on.
const std::vector<OptionSpec>& studySpecs();
// The spec of an option the study accepts; nullptr for any other word.
const OptionSpec* studySpecOf(const std::string& name);
bool isStudyOwnOption(const std::string& name);
// A split strategy knob (--shard-factor, --binary-combine, ...), passed to the split runs only.
bool isSplitKnob(const std::string& name);

}  // namespace skynnet::cli
