#include "ui/core/study_record.h"

#include <QCoreApplication>
#include <algorithm>

#include "core/error.h"

namespace skynnet::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("StudyRecord", text); }

QStringList items(const QString& field, const QString& text) {
    QStringList list;
    for (const QString& raw : text.split(QLatin1Char(','))) {
        const QString item = raw.trimmed();
        if (item.isEmpty())
            throw Error(
                tr("%1: expects a comma-separated list without empty items, got '%2'").arg(field, text).toStdString());
        if (list.contains(item)) throw Error(tr("%1: '%2' is given twice").arg(field, item).toStdString());
        list << item;
    }
    return list;
}

template <typename T>
QString joined(const std::vector<T>& values) {
    QStringList words;
    for (T v : values) words << QString::number(v);
    return words.join(QLatin1Char(','));
}

}  // namespace

std::vector<int> parseSubmodelList(const QString& text) {
    std::vector<int> values;
    for (const QString& item : items(tr("N list"), text)) {
        bool ok = false;
        const int n = item.toInt(&ok);
        if (!ok || n < 1) throw Error(tr("N list: '%1' is not a whole number of at least 1").arg(item).toStdString());
        values.push_back(n);
    }
    if (std::find(values.begin(), values.end(), 1) == values.end()) values.push_back(1);
    std::sort(values.begin(), values.end());
    return values;
}

std::vector<std::uint64_t> parseSeedList(const QString& text) {
    std::vector<std::uint64_t> values;
    for (const QString& item : items(tr("Seeds"), text)) {
        bool ok = false;
        const qulonglong s = item.toULongLong(&ok);
        if (!ok) throw Error(tr("Seeds: '%1' is not a non-negative whole number").arg(item).toStdString());
        values.push_back(std::uint64_t(s));
    }
    return values;
}

QString listText(const std::vector<int>& values) { return joined(values); }
QString listText(const std::vector<std::uint64_t>& values) { return joined(values); }

QStringList studyArguments(const StudyChoice& c, const QString& project, const QString& outDir, int threads) {
    QStringList a = {QStringLiteral("study"),
                     QStringLiteral("--project"),
                     project,
                     QStringLiteral("--out"),
                     outDir,
                     QStringLiteral("--submodels"),
                     listText(c.submodels),
                     QStringLiteral("--seeds"),
                     listText(c.seeds)};
    if (c.strategies != QStringList{QStringLiteral("auto")})
        a << QStringLiteral("--strategies") << c.strategies.join(QLatin1Char(','));
    if (c.scaleEpochs != QStringList{QStringLiteral("default")})
        a << QStringLiteral("--scale-epochs") << c.scaleEpochs.join(QLatin1Char(','));
    if (!c.ensemble) a << QStringLiteral("--no-ensemble");
    if (threads > 0) a << QStringLiteral("--threads") << QString::number(threads);
    a << QStringLiteral("--progress") << QStringLiteral("json");
    return a;
}

int StudyRecord::finishedRuns() const {
    return int(std::count_if(runs.begin(), runs.end(),
                             [](const Json& r) { return r.value("status", std::string()) == "finished"; }));
}

void StudyRecord::addRun(const Json& run) {
    const std::string name = run.value("run", std::string());
    const auto same = std::find_if(runs.begin(), runs.end(),
                                   [&](const Json& r) { return r.value("run", std::string()) == name; });
    if (same != runs.end()) *same = run;
    else runs.push_back(run);
}

Json StudyRecord::toJson() const {
    QStringList strategyWords = choice.strategies, scaleWords = choice.scaleEpochs;
    std::vector<std::string> strategyNames, scaleNames;
    for (const QString& s : strategyWords) strategyNames.push_back(s.toStdString());
    for (const QString& s : scaleWords) scaleNames.push_back(s.toStdString());
    return Json::object({{"options", Json::object({{"submodels", choice.submodels},
                                                   {"seeds", choice.seeds},
                                                   {"strategies", strategyNames},
                                                   {"scale_epochs", scaleNames},
                                                   {"ensemble", choice.ensemble}})},
                         {"folder", folder.toStdString()},
                         {"total", total},
                         {"runs", runs},
                         {"summary", summary},
                         {"complete", complete}});
}

StudyRecord StudyRecord::fromJson(const Json& json) {
    const JsonField j(json, "study");
    StudyRecord r;
    const JsonField o = j.at("options");
    r.choice.submodels = o.at("submodels").get<std::vector<int>>();
    r.choice.seeds = o.at("seeds").get<std::vector<std::uint64_t>>();
    r.choice.strategies.clear();
    for (const JsonField& s : o.at("strategies").asArray()) r.choice.strategies << QString::fromStdString(s.asString());
    r.choice.scaleEpochs.clear();
    for (const JsonField& s : o.at("scale_epochs").asArray())
        r.choice.scaleEpochs << QString::fromStdString(s.asString());
    r.choice.ensemble = o.at("ensemble").asBool();
    r.folder = QString::fromStdString(j.value("folder", ""));
    r.total = j.value("total", 0);
    for (const JsonField& run : j.at("runs").asArray()) {
        (void)run.asObject();
        (void)run.at("run").asString();
        r.runs.push_back(run.json());
    }
    r.summary = j.value("summary", Json());
    r.complete = j.value("complete", false);
    return r;
}

}  // namespace skynnet::ui
