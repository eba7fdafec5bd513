#include "data/training_checks.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.h"
#include "data/splits.h"

namespace skynnet {
namespace {

std::string rowCount(long n) { return std::to_string(n) + (n == 1 ? " row" : " rows"); }
std::string allRows(long n) { return n == 1 ? "its only row" : "all " + rowCount(n); }

std::string number(double v) {
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

std::string whereOf(const Dataset& d) { return d.source.empty() ? std::string("dataset") : d.source; }

// The subject of a message about the labels, with its verb.
std::string labelsHold(const Dataset& d) {
    return d.labelColumn.empty() ? std::string("the labels hold") : "target column '" + d.labelColumn + "' holds";
}

// "training, validation (fraction 0.1) and test (fraction 0.2)": the parts asked for.
std::string requestedParts(double validation, double test) {
    std::vector<std::string> parts = {"training"};
    if (validation > 0) parts.push_back("validation (fraction " + number(validation) + ")");
    if (test > 0) parts.push_back("test (fraction " + number(test) + ")");
    std::string s = parts[0];
    for (std::size_t i = 1; i < parts.size(); ++i) s += (i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return s;
}

bool everyPartFilled(const PartSizes& p, double validation, double test) {
    return p.train > 0 && (validation == 0 || p.validation > 0) && (test == 0 || p.test > 0);
}

// The fewest rows that give every requested part a row when they are split as one group (the
// regression split). A stratified split cuts the same totals, then lets classes keep a training
// row, so it never needs fewer.
long fewestRows(double validation, double test) {
    double start = 1 + (validation > 0) + (test > 0);
    // A part's count is its share rounded: below half a row it rounds to none.
    for (double f : {validation, test})
        if (f > 0) start = std::max(start, std::floor(0.5 / f));
    if (start > 1e9) return long(start);  // a bound is all a message needs
    long n = long(start);
    for (long tries = 0;
         tries < 1000000 && !everyPartFilled(partSizes({int(n)}, validation, test)[0], validation, test); ++tries)
        ++n;
    return n;
}

struct Totals {
    PartSizes parts;
    int classesPresent = 0;
};

Totals splitTotals(const Dataset& d, double validation, double test) {
    std::vector<int> groups;
    if (predictsValues(d.task)) {
        groups.push_back(int(d.size()));
    } else {
        groups.assign(std::size_t(std::max(d.classCount(), 1)), 0);
        for (int label : d.labels)
            if (label >= 0 && label < int(groups.size())) ++groups[std::size_t(label)];
    }
    Totals t;
    for (const PartSizes& p : partSizes(groups, validation, test)) {
        t.parts.train += p.train;
        t.parts.validation += p.validation;
        t.parts.test += p.test;
    }
    t.classesPresent = int(std::count_if(groups.begin(), groups.end(), [](int n) { return n > 0; }));
    return t;
}

[[noreturn]] void refuseOneClass(const Dataset& d) {
    const int k = d.labels.front();
    const std::string name = k >= 0 && k < d.classCount() && !d.classNames[std::size_t(k)].empty()
                                 ? d.classNames[std::size_t(k)]
                                 : std::to_string(k);
    std::string message = whereOf(d) + ": " + labelsHold(d) + " one class only ('" + name + "' in " +
                          allRows(long(d.size())) + ")";
    if (d.classCount() > 1) message += " of the " + std::to_string(d.classCount()) + " declared";
    throw Error(message + ": classification needs at least 2 classes");
}

std::vector<std::string> constantTargets(const Dataset& d) {
    std::vector<std::string> warnings;
    for (Index c = 0; c < d.targets.cols(); ++c) {
        const auto column = d.targets.col(c);
        if ((column.array() != column(0)).any()) continue;
        const std::string name = std::size_t(c) < d.targetNames.size() ? d.targetNames[std::size_t(c)]
                                                                       : std::to_string(c);
        warnings.push_back(whereOf(d) + ": target column '" + name + "' holds one value only (" + number(column(0)) +
                           " in " + allRows(long(d.size())) + "): the model can only learn that constant");
    }
    return warnings;
}

}  // namespace

std::vector<std::string> checkTrainable(const Dataset& data, double validationFraction, double testFraction,
                                        bool separateTestFile) {
    const double test = separateTestFile ? 0.0 : testFraction;
    const long rows = long(data.size());
    if (rows == 0) throw Error(whereOf(data) + ": no rows to train on");
    data.validate();  // labels in range, one per row
    const long needed = fewestRows(validationFraction, test);
    if (rows < needed)
        throw Error(whereOf(data) + ": " + rowCount(rows) + (rows == 1 ? " is" : " are") + " too few for " +
                    requestedParts(validationFraction, test) + ": at least " + rowCount(needed) +
                    " are needed to give each part a row");
    const Totals totals = splitTotals(data, validationFraction, test);
    if (!predictsValues(data.task) && totals.classesPresent < 2) refuseOneClass(data);

    std::vector<std::string> empty;
    if (validationFraction > 0 && totals.parts.validation == 0) empty.push_back("validation");
    if (test > 0 && totals.parts.test == 0) empty.push_back("test");
    if (!empty.empty())
        throw Error(whereOf(data) + ": " + rowCount(rows) + " in " + std::to_string(totals.classesPresent) +
                    " classes leave no row for " + (empty.size() == 2 ? "validation and test" : empty[0]) +
                    ": the stratified split keeps a row of every class for training (give the classes more rows, "
                    "or set that fraction to 0)");
    // Reconstruction targets are the inputs: a constant input (an image's blank corner) is common
    // and learnt exactly, no reason for a warning.
    return data.task == Task::Regression ? constantTargets(data) : std::vector<std::string>{};
}

}  // namespace skynnet
