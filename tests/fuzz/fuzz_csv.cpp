// The CSV loader: the first byte picks the options (delimiter, header, targets, task), the rest is
// the file. A file that loads for training is then loaded for prediction with the model's columns,
// as `predict` would.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "data/csv_loader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    using namespace skynnet;
    const std::uint8_t pick = data[0];
    CsvOptions options;
    static constexpr char delimiters[] = {0, ',', ';', '\t', '|', ' ', 0, 0};
    options.delimiter = delimiters[pick & 7];
    options.header = CsvHeader((pick >> 3) % 3);
    switch ((pick >> 5) & 3) {
    case 0: break;
    case 1: options.targets = {"0"}; break;
    case 2: options.targets = {"0", "1"}; break;
    case 3: options.targets = {"label"}; break;
    }
    static constexpr Task tasks[] = {Task::Classification, Task::Binary, Task::Regression};
    if (pick & 0x80) options.task = tasks[((pick >> 5) & 3) % 3];

    const std::string path = fuzz::writeInput("input.csv", fuzz::asText(data + 1, size - 1));
    try {
        const Dataset d = loadCsv(path, options);
        loadCsvForPrediction(path, d.featureNames, d.categoricals, options);
    } catch (const Error& e) {
        fuzz::rejected(e);
    }
    return 0;
}
