#pragma once
// What the export tests (tst_export, tst_export_sequence, tst_cpp_sequence_export) share: running
// a program, ONNX Runtime through Node.js (tests/export/run_onnx.js) and reading its answers, the
// runner program that compiles exported C++ headers and prints their predictions, and seeded
// weights and inputs.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "export/onnx_export.h"
#include "spec/network_spec.h"
#include "spec_support.h"
#include "split/combined_model_file.h"
#include "test_support.h"

namespace skynnet::export_test {

inline void writeFloats(const QString& path, const Matrix& m) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(m.data()), qint64(m.size() * sizeof(float)));  // row-major, x86: LE
}

// Runs a program; returns its stdout, or sets `error` (exit code and stderr).
inline QByteArray run(const QString& program, const QStringList& args, QString& error, int timeoutMs = 120000,
                      const QString& dir = {}) {
    QProcess p;
    if (!dir.isEmpty()) p.setWorkingDirectory(dir);
    p.start(program, args);
    if (!p.waitForStarted()) {
        error = program + " did not start";
        return {};
    }
    if (!p.waitForFinished(hangGuardMs(timeoutMs))) {
        p.kill();
        p.waitForFinished();
        error = program + " timed out";
        return {};
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        error = program + " exited with " + QString::number(p.exitCode()) + ": " +
                QString::fromUtf8(p.readAllStandardError());
    return p.readAllStandardOutput();
}

// Largest |a - b|; rows and columns must agree.
inline double maxDifference(const Matrix& a, const Matrix& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return double((a - b).cwiseAbs().maxCoeff());
}

inline Matrix fromJson(const QJsonObject& output) {
    const QJsonArray dims = output["dims"].toArray(), data = output["data"].toArray();
    if (dims.size() != 2) return {};
    Matrix m(dims[0].toInt(), dims[1].toInt());
    if (data.size() != m.size()) return {};
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = float(data[int(i)].toDouble());
    return m;
}

// Weights for `spec` in Network::flatWeights() order, seeded: uniform in [-0.5, 0.5], except
// BatchNorm's gamma (around 1) and running variance (positive), so every layer's effect shows.
inline std::vector<float> handSetWeights(const NetworkSpec& spec, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<float> w;
    const auto fill = [&](std::int64_t n, float low, float high) {
        std::uniform_real_distribution<float> d(low, high);
        for (std::int64_t i = 0; i < n; ++i) w.push_back(d(rng));
    };
    Shape shape = spec.input;
    for (const LayerSpec& l : spec.layers) {
        const LayerFigures f = figures(l, shape);
        if (std::holds_alternative<BatchNormSpec>(l)) {
            const int channels = batchNormChannels(shape);
            fill(channels, 0.5f, 1.5f);   // gamma
            fill(channels, -0.5f, 0.5f);  // beta
            fill(channels, -1.0f, 1.0f);  // running mean
            fill(channels, 0.3f, 2.0f);   // running variance
        } else {
            fill(f.params, -0.5f, 0.5f);
        }
        shape = f.output;
    }
    fill(figures(LayerSpec(spec.outputLayer()), shape).params, -0.5f, 0.5f);
    return w;
}

// One network with hand-set weights, as the combined model of one submodel that export takes.
inline SavedCombinedModel singleModel(const NetworkSpec& spec, Task task, unsigned seed) {
    SavedModel m;
    m.schema.task = task;
    m.spec = spec;
    m.weights = handSetWeights(spec, seed);
    return asCombined(m);
}

inline Matrix uniformRows(Index rows, Index cols, float low, float high, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(low, high);
    Matrix m(rows, cols);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = d(rng);
    return m;
}

// Why ONNX Runtime cannot run here, or empty (then `node` is set).
inline QString onnxRuntimeMissing(QString& node) {
    if (!onnxExportAvailable()) return "this build has no ONNX export (libonnx-dev, libprotobuf-dev missing)";
    node = QStandardPaths::findExecutable("node");
    if (node.isEmpty()) return "node (Node.js) is not installed: the ONNX Runtime check needs it";
    const QString exportDir = QString::fromStdString(sourcePath("tests/export"));
    if (!QFile::exists(exportDir + "/node_modules/onnxruntime-node/package.json")) {
        // Normally done by tests/export/setup.sh; here so a plain test run works too.
        const QString npm = QStandardPaths::findExecutable("npm");
        if (npm.isEmpty()) return "npm is not installed: cannot install onnxruntime-node";
        QString error;
        run(npm, {"ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"}, error, 300000, exportDir);
        if (!error.isEmpty()) return "cannot install onnxruntime-node (tests/export/setup.sh): " + error;
    }
    return {};
}

// One ONNX Runtime job: a model file, its input rows and the output to return. Token ids (a
// text model's input, exact integers in the floats) are given to the model as int64.
struct OrtJob {
    QString model;
    Matrix input;
    QString output;
    bool int64Ids = false;
};

// Token ids as little-endian int64, row after row.
inline void writeInt64s(const QString& path, const Matrix& ids) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    std::vector<std::int64_t> values(std::size_t(ids.size()));
    for (Index i = 0; i < ids.size(); ++i) values[std::size_t(i)] = std::int64_t(ids.data()[i]);
    f.write(reinterpret_cast<const char*>(values.data()), qint64(values.size() * sizeof(std::int64_t)));
}

// Runs the jobs with ONNX Runtime (tests/export/run_onnx.js); sets `error` when node fails.
inline std::vector<Matrix> runOnnxRuntime(const QString& node, const QString& dir, const std::vector<OrtJob>& jobs,
                                          QString& error) {
    QJsonArray list;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const OrtJob& job = jobs[i];
        const QString file = dir + "/ort_input" + QString::number(i) + ".bin";
        job.int64Ids ? writeInt64s(file, job.input) : writeFloats(file, job.input);
        list.append(QJsonObject{{"model", job.model},
                                {"input", file},
                                {"rows", int(job.input.rows())},
                                {"cols", int(job.input.cols())},
                                {"type", job.int64Ids ? "int64" : "float32"}});
    }
    QFile jobFile(dir + "/ort_jobs.json");
    if (!jobFile.open(QIODevice::WriteOnly)) {
        error = "cannot write " + jobFile.fileName();
        return {};
    }
    jobFile.write(QJsonDocument(list).toJson());
    jobFile.close();
    const QByteArray out =
        run(node, {QString::fromStdString(sourcePath("tests/export/run_onnx.js")), jobFile.fileName()}, error);
    std::vector<Matrix> results;
    if (!error.isEmpty()) return results;
    const QJsonArray all = QJsonDocument::fromJson(out).object()["results"].toArray();
    for (qsizetype i = 0; i < all.size() && std::size_t(i) < jobs.size(); ++i)
        results.push_back(fromJson(all[i].toObject()["outputs"].toObject()[jobs[std::size_t(i)].output].toObject()));
    return results;
}

// Compiles `source` as DIR/NAME.cpp (C++17, -Werror: the generated code must be as warning-clean
// as the project's) and runs it; returns its output lines, or sets `error`.
inline QList<QByteArray> compileAndRun(const QString& dir, const QString& name, const QString& source, QString& error) {
    const QString gxx = QStandardPaths::findExecutable("g++");
    if (gxx.isEmpty()) {
        error = "g++ is not installed";
        return {};
    }
    QFile file(dir + "/" + name + ".cpp");
    if (!file.open(QIODevice::WriteOnly)) {
        error = "cannot write " + file.fileName();
        return {};
    }
    file.write(source.toUtf8());
    file.close();
    const QString exe = dir + "/" + name;
    run(gxx, {"-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-o", exe, file.fileName()}, error, 180000);
    if (!error.isEmpty()) return {};
    return run(exe, {}, error, 180000).split('\n');
}

// Rows for an exported C++ header: DIR/NAME.h, whose namespace is m_NAME, predicts `raw` (raw
// feature columns) into `outputs` columns.
struct CppHeaderRows {
    QString name;
    Matrix raw;
    Index outputs = 1;
};

// The runner: one program (DIR/PROGRAM.cpp) that includes every header, reads each job's rows from
// a float file, calls its predict(rows, samples, out) and prints every value (%.9g, one a line).
// Returns each job's answers (NaN where a value is missing), or sets `error`.
inline std::vector<Matrix> runCppHeaders(const QString& dir, const QString& program,
                                         const std::vector<CppHeaderRows>& jobs, QString& error) {
    QString includes = "#include <cstdio>\n#include <cstdlib>\n#include <vector>\n", calls;
    QStringList included;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const CppHeaderRows& job = jobs[i];
        if (!included.contains(job.name)) includes += "#include \"" + job.name + ".h\"\n";
        included << job.name;
        const QString input = dir + "/" + program + "_" + QString::number(i) + ".bin";
        writeFloats(input, job.raw);
        calls += QString("    static_assert(m_%3::kOutputs == %4, \"the outputs the test reads\");\n"
                         "    run(\"%1\", %2, m_%3::kRawColumns, m_%3::kOutputs, [](const float* x, std::size_t n, "
                         "float* y) { m_%3::predict(x, n, y); });\n")
                     .arg(input)
                     .arg(job.raw.rows())
                     .arg(job.name)
                     .arg(job.outputs);
    }
    const QString source = includes + R"(
template <typename Predict>
void run(const char* path, int rows, int cols, int outs, Predict predict) {
    std::vector<float> in(static_cast<std::size_t>(rows * cols)), out(static_cast<std::size_t>(rows * outs));
    std::FILE* f = std::fopen(path, "rb");
    if (!f || std::fread(in.data(), sizeof(float), in.size(), f) != in.size()) std::exit(2);
    std::fclose(f);
    predict(in.data(), static_cast<std::size_t>(rows), out.data());
    for (float v : out) std::printf("%.9g\n", static_cast<double>(v));
}

int main() {
)" + calls + "}\n";
    const QList<QByteArray> values = compileAndRun(dir, program, source, error);
    std::vector<Matrix> answers;
    if (!error.isEmpty()) return answers;
    qsizetype at = 0;
    for (const CppHeaderRows& job : jobs) {
        Matrix got(job.raw.rows(), job.outputs);
        for (Index i = 0; i < got.size(); ++i) got.data()[i] = at < values.size() ? values[at++].toFloat() : NAN;
        answers.push_back(got);
    }
    return answers;
}

// The engine's answer for raw rows, to hold an exported graph against.
inline Matrix engine(const SavedCombinedModel& m, const Matrix& x) {
    CombinedModel built = buildCombinedModel(m);
    return predictRaw(built, m, x);
}

// describe_onnx.py's account of a file: {"nodes": [{"op", "name", "inputs", "attributes"}], "initializers"}.
inline QJsonObject describeGraph(const QString& file, QString& error) {
    const QByteArray out = run("/usr/bin/python3",
                               {QString::fromStdString(sourcePath("tests/export/describe_onnx.py")), file}, error);
    return QJsonDocument::fromJson(out).object();
}

inline QStringList opsOf(const QJsonObject& graph) {
    QStringList ops;
    for (const auto& n : graph["nodes"].toArray()) ops << n.toObject()["op"].toString();
    return ops;
}

inline QList<int> intsOf(const QJsonValue& v) {
    QList<int> out;
    for (const auto& i : v.toArray()) out << i.toInt();
    return out;
}

}  // namespace skynnet::export_test
