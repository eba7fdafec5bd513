#include "ui/core/plan_warnings.h"

#include <QCoreApplication>
#include <algorithm>
#include <map>

namespace skynnet::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("PlanWarnings", text); }

// "submodel 4" for one, "submodels 1, 2, 3, 4, 5 and 35 more" for many (1-based, as the table).
QString submodelList(const std::vector<int>& submodels) {
    if (submodels.size() == 1) return tr("submodel %1").arg(submodels.front() + 1);
    constexpr std::size_t shown = 5;
    QStringList numbers;
    for (std::size_t i = 0; i < submodels.size() && i < shown; ++i) numbers << QString::number(submodels[i] + 1);
    QString text = tr("submodels %1").arg(numbers.join(QStringLiteral(", ")));
    if (submodels.size() > shown) text += tr(" and %1 more").arg(submodels.size() - shown);
    return text;
}

// By its name as the data's table shows it: "Class 'setosa'", or "Class 2" for a label that is
// its own index; the index only for a class without a name.
QString classText(const DataInfo& data, int c) {
    const bool named = c >= 0 && c < int(data.classNames.size()) && !data.classNames[std::size_t(c)].empty();
    if (!named) return tr("Class %1").arg(c);
    const QString name = QString::fromStdString(data.classNames[std::size_t(c)]);
    return name == QString::number(c) ? tr("Class %1").arg(name) : tr("Class '%1'").arg(name);
}

// At most this many sentences about classes; the rest are counted in one more.
constexpr int maxClassLines = 6;

}  // namespace

std::vector<int> classesToLearn(const SplitPlan& plan, const SubmodelPlan& s, const DataInfo& data) {
    if (data.task == Task::Regression) return {};
    if (plan.strategy == Strategy::ClassGroups) return s.classes;
    std::vector<int> all(std::size_t(std::max(0, data.classCount)));
    for (std::size_t c = 0; c < all.size(); ++c) all[c] = int(c);
    return all;
}

PlanWarnings planWarnings(const SplitPlan& plan, const DataInfo& data, long minRows) {
    PlanWarnings w;
    std::vector<int> fewRows;
    long fewest = -1;
    // Per class, the submodels where it is missing or thin (ordered by class for stable text).
    std::map<int, std::vector<int>> missing, thin;
    for (std::size_t k = 0; k < plan.submodels.size(); ++k) {
        const SubmodelPlan& s = plan.submodels[k];
        SubmodelStarvation starve;
        starve.submodel = s.index;
        starve.rows = long(s.rows.size());
        if (starve.rows < minRows) {
            fewRows.push_back(int(k));
            fewest = fewest < 0 ? starve.rows : std::min(fewest, starve.rows);
        }
        const std::vector<int> classes = classesToLearn(plan, s, data);
        if (!classes.empty()) {
            std::vector<long> counts(std::size_t(std::max(0, data.classCount)), 0);
            for (int r : s.rows) {
                const int label = r >= 0 && std::size_t(r) < data.labels.size() ? data.labels[std::size_t(r)] : -1;
                if (label >= 0 && std::size_t(label) < counts.size()) ++counts[std::size_t(label)];
            }
            for (int c : classes) {
                if (c < 0 || std::size_t(c) >= counts.size()) continue;
                const long n = counts[std::size_t(c)];
                if (n == 0) {
                    starve.missingClasses.push_back(c);
                    missing[c].push_back(int(k));
                } else if (n < minRows) {
                    starve.thinClasses.push_back({c, n});
                    thin[c].push_back(int(k));
                }
            }
        }
        if (starve.rows < minRows || !starve.missingClasses.empty() || !starve.thinClasses.empty())
            w.starved.push_back(std::move(starve));
    }

    if (fewRows.size() == 1) {
        w.lines << tr("Submodel %1 learns from only %2 training rows; fewer than %3 leave it little to learn from.")
                       .arg(plan.submodels[std::size_t(fewRows.front())].index + 1)
                       .arg(fewest)
                       .arg(minRows);
    } else if (!fewRows.empty()) {
        w.lines << tr("%1 of %2 submodels learn from fewer than %3 training rows (the fewest %4): ask for a smaller N.")
                       .arg(fewRows.size())
                       .arg(plan.submodels.size())
                       .arg(minRows)
                       .arg(fewest);
    }
    int classLines = 0, moreClasses = 0;
    for (const auto& [c, where] : missing) {
        // Class groups give a submodel every row of its classes: a class missing there is missing
        // from the training data, and the planner's own warnings name each submodel already.
        if (plan.strategy == Strategy::ClassGroups) break;
        if (classLines++ >= maxClassLines) {
            ++moreClasses;
            continue;
        }
        w.lines
            << tr("%1 has no training row in %2, which cannot learn it.").arg(classText(data, c), submodelList(where));
    }
    for (const auto& [c, where] : thin) {
        if (classLines++ >= maxClassLines) {
            ++moreClasses;
            continue;
        }
        w.lines << tr("%1 has fewer than %2 training rows in %3.")
                       .arg(classText(data, c))
                       .arg(minRows)
                       .arg(submodelList(where));
    }
    if (moreClasses > 0) w.lines << tr("The same for %1 more classes.").arg(moreClasses);
    return w;
}

}  // namespace skynnet::ui
