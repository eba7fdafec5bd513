#include "study/study_outputs.h"

#include <cstdint>
#include <cstdio>

#include "study/machine_schedule.h"

namespace skynnet {
namespace {

// The number formats of skynnet-cli's terminal output (app/cli/text_format.h), which the study's
// files share with its terminal table.
std::string format(const char* pattern, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, pattern, v);
    return buf;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// "850 KB", "12.3 MB" or "1.25 GB": three significant digits whatever the size (binary units).
// The table's "epochs scaled" column: yes (by F), no, or sqrt (by sqrt(F)).
std::string scaledText(EpochScaling s) {
    return s == EpochScaling::On ? "yes" : s == EpochScaling::Off ? "no" : "sqrt";
}

std::string memoryText(std::int64_t bytes) {
    const double kb = double(bytes) / 1024.0, mb = kb / 1024.0, gb = mb / 1024.0;
    if (kb < 1000) return format("%.3g KB", kb);
    if (mb < 1000) return format("%.3g MB", mb);
    return format("%.3g GB", gb);
}

std::string signedFixed(double v, int decimals) { return (v >= 0 ? "+" : "") + fixed(v, decimals); }

// RFC 4180: quoted when the field holds a comma, a quote or a line break.
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string csvNumber(double v) { return format("%.10g", v); }

std::string differenceText(const ConfigSummary& c) {
    if (c.config.original()) return "(the original)";
    if (!c.difference) return "(no paired seed)";
    const PairedDifference& d = *c.difference;
    if (!d.interval) return signedFixed(d.mean, 4) + " (1 seed)";
    return signedFixed(d.mean, 4) + " [" + signedFixed(d.interval->low(), 4) + ", " +
           signedFixed(d.interval->high(), 4) + "]";
}

// A rule's columns for one configuration: its mean and its difference to the original.
std::vector<std::string> ruleCells(const ConfigSummary& c, const std::string& rule) {
    for (const RuleSummary& r : c.rules)
        if (r.rule == rule) {
            std::string diff = "-";
            if (r.difference)
                diff = !r.difference->interval
                           ? signedFixed(r.difference->mean, 4) + " (1 seed)"
                           : signedFixed(r.difference->mean, 4) + " [" + signedFixed(r.difference->interval->low(), 4) +
                                 ", " + signedFixed(r.difference->interval->high(), 4) + "]";
            return {fixed(r.metricMean, 4), diff};
        }
    return {"-", "-"};
}

std::string latencyText(const std::optional<double>& seconds) {
    return seconds ? format("%.3g", *seconds * 1e3) : std::string("-");
}

std::string csvRow(const StudyRun& r, int machines) {
    const StudyConfig& c = r.spec.config;
    std::string text = csvField(r.spec.name()) + "," + csvField(c.name()) + "," + std::to_string(c.submodels) + ",";
    if (!r.finished) {
        // S and the figures stay empty; the error is the last column.
        return text + "," + std::to_string(r.spec.seed) + "," + csvField(c.strategy) + ",,failed" +
               std::string(13, ',') + csvField(r.error) + "\n";
    }
    return text + std::to_string(r.S) + "," + std::to_string(r.spec.seed) + "," + csvField(r.strategy) + "," +
           epochScalingName(r.epochScaling) + ",finished," + r.metricName + "," + csvNumber(r.metric) + "," +
           csvNumber(r.wallSeconds) + "," + csvNumber(r.trainSeconds) + "," + csvNumber(r.slowestSubmodelSeconds) +
           "," + csvNumber(machinesSeconds(r.submodelSeconds, machines)) + "," + csvNumber(r.cpuSeconds) + "," +
           std::to_string(r.peakMemoryBytes) + "," + std::to_string(r.processPeakMemoryBytes) + "," +
           std::to_string(r.params) + "," + std::to_string(r.flopsPerSample) + "," +
           (r.latencySeconds ? csvNumber(*r.latencySeconds) : "") + ",\n";
}

}  // namespace

Json studyJson(const std::vector<StudyRun>& runs, const StudySummary& summary, const StudyPlan& plan,
               const StudyOrigin& origin) {
    Json list = Json::array();
    for (const StudyRun& r : runs) list.push_back(runJson(r, summary.machines));
    return Json::object({{"tool", origin.tool},
                         {"version", origin.version},
                         {"command", "study"},
                         {"study_command", origin.commandLine},
                         {"options", plan.setupJson()},
                         {"machines", summary.machines},
                         {"latency_batch_rows", latencyBatchRows},
                         {"runs", list},
                         {"summary", summaryJson(summary)}});
}

std::string studyCsv(const std::vector<StudyRun>& runs, int machines) {
    std::string text =
        "run,config,submodels,S,seed,strategy,scale_epochs,status,metric_name,metric,wall_seconds,train_seconds,"
        "slowest_submodel_seconds,machines_seconds,cpu_seconds,peak_memory_bytes,process_peak_memory_bytes,params,"
        "flops_per_sample,latency_seconds_per_batch,error\n";
    for (const StudyRun& r : runs) text += csvRow(r, machines);
    return text;
}

std::vector<std::vector<std::string>> studyTableRows(const StudySummary& s) {
    std::vector<std::vector<std::string>> rows = {
        {"configuration", "N", "S", "strategy", "epochs scaled", "runs", s.metricName + " mean", "sd",
         "difference [95% CI]", "wall s", "slowest submodel s",
         "on " + std::to_string(s.machines) + " machine" + (s.machines == 1 ? "" : "s") + " s", "cpu s", "peak memory",
         "params", "MFLOP/sample", "ms per " + std::to_string(latencyBatchRows) + " rows"}};
    for (const ConfigSummary& c : s.configs)
        rows.push_back({c.config.name(), std::to_string(c.config.submodels), std::to_string(c.S), c.strategy,
                        c.config.original() ? "-" : scaledText(c.epochScaling), std::to_string(c.runs),
                        fixed(c.metricMean, 4), c.metricStdDev ? fixed(*c.metricStdDev, 4) : "-", differenceText(c),
                        fixed(c.wallSeconds, 2), fixed(c.slowestSubmodelSeconds, 2), fixed(c.machinesSeconds, 2),
                        fixed(c.cpuSeconds, 2), memoryText(c.peakMemoryBytes), std::to_string(c.params),
                        format("%.3g", double(c.flopsPerSample) / 1e6), latencyText(c.latencySeconds)});
    // The same submodels combined by each rule asked for (study --combine): a mean and a difference each.
    for (const std::string& rule : s.rules) {
        rows[0].push_back(rule + " mean");
        rows[0].push_back(rule + " difference [95% CI]");
        for (std::size_t i = 0; i < s.configs.size(); ++i)
            for (std::string& cell : ruleCells(s.configs[i], rule)) rows[i + 1].push_back(std::move(cell));
    }
    return rows;
}

std::string recommendationText(const StudySummary& s) {
    if (!s.threshold) return "No recommendation: no run of the original model (N=1) finished.\n";
    std::string text = "Original: " + s.metricName + " " + fixed(*s.originalMean, 4);
    if (s.originalStdDev) text += " +- " + fixed(*s.originalStdDev, 4) + " (standard deviation over the seeds)";
    else text += " (one seed: no spread known, so nothing below it counts as within it)";
    text += ".\nRecommended, the shortest time with a mean " + s.metricName + " of at least " + fixed(*s.threshold, 4) +
            ":\n";
    const auto line = [](const char* where, const std::optional<Recommendation>& r, const char* what) {
        return std::string("  ") + where + ": " +
               (r ? r->config + " (" + r->strategy + "), " + fixed(r->seconds, 2) + " s " + what + ", " +
                        fixed(r->metricMean, 4)
                  : "none") +
               "\n";
    };
    text += line("on this machine", s.thisMachine, "wall");
    const std::string k = "on " + std::to_string(s.machines) + " machine" + (s.machines == 1 ? "" : "s");
    text += line(k.c_str(), s.onMachines, "for the submodels scheduled longest first");
    return text;
}

std::string studyMarkdown(const StudySummary& s, const std::string& commandLine) {
    std::string md = "# Split study\n\n```\n" + commandLine + "\n```\n\n";
    const auto rows = studyTableRows(s);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string line = "|";
        for (const std::string& cell : rows[i]) line += " " + cell + " |";
        md += line + "\n";
        if (i == 0) {
            std::string rule = "|";
            for (std::size_t c = 0; c < rows[i].size(); ++c) rule += c == 0 || c == 3 ? " --- |" : " ---: |";
            md += rule + "\n";
        }
    }
    md += "\n" + recommendationText(s) +
          "\nThe difference is the paired one, against the original on the same seeds, with Student's t 95%\n"
          "interval (pairs - 1 degrees of freedom). Times were measured on this machine, where a split's\n"
          "submodels shared its cores; \"on K machines\" schedules those measured submodel times on K machines,\n"
          "longest first. Peak memory: the largest submodel's training peak, its training rows counted.\n"
          "Latency: the saved combined model's predict() on " +
          std::to_string(latencyBatchRows) + " rows, the median of several repetitions.\n";
    return md;
}

}  // namespace skynnet
