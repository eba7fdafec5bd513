// The Results page's reconstructions, for an autoencoder on image data: the first test inputs
// beside the combined model's, each submodel's and the baseline's reconstructions of them
// (ReconstructionGrid). The combined and baseline rows are the run's own test outputs; the
// submodels' are computed from the run's kept weights on a worker thread, since a larger network
// over a few images may still take longer than a frame.
#include <QFutureWatcher>
#include <QLabel>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "project/project_file.h"
#include "split/combined_model_file.h"
#include "ui/core/training_session.h"
#include "ui/widgets/reconstruction_grid.h"
#include "ui/widgets/results_page.h"

namespace skynnet::ui {
namespace {

using Columns = std::vector<std::pair<int, int>>;

// The output columns submodel i produces; empty: every one (data shards average whole outputs).
Columns producedBy(const CombinationRule& rule, int i) {
    if (rule.strategy != Strategy::OutputSplit || std::size_t(i) >= rule.columns.size()) return {};
    return {rule.columns[std::size_t(i)]};
}

struct SubmodelRows {
    std::vector<Matrix> outputs;  // one per submodel
    QString error;                // what the engine threw instead
};

// Each submodel's outputs for `inputs`, placed in the combined model's columns (zeros elsewhere).
SubmodelRows submodelReconstructions(const SavedCombinedModel& saved, const Matrix& inputs) {
    SubmodelRows rows;
    try {
        CombinedModel model = buildCombinedModel(saved);
        rows.outputs = model.submodelOutputs(inputs);
    } catch (const std::exception& e) {  // weights that do not fit their specs
        rows.error = QString::fromUtf8(e.what());
        return rows;
    }
    for (int i = 0; i < int(rows.outputs.size()); ++i) {
        const Columns part = producedBy(saved.rule, i);
        if (part.empty()) continue;
        Matrix whole = Matrix::Zero(inputs.rows(), saved.rule.outputs);
        whole.middleCols(part[0].first, part[0].second - part[0].first) = rows.outputs[std::size_t(i)];
        rows.outputs[std::size_t(i)] = std::move(whole);
    }
    return rows;
}

// Whether networks of this input take images the grid can draw.
bool isImage(const Shape& s, Index columns) {
    return !s.sequence && s.height >= 2 && s.width >= 2 && (s.channels == 1 || s.channels == 3) && s.size() == columns;
}

}  // namespace

QWidget* ResultsPage::buildReconstructions() {
    reconstructions_ = new ReconstructionGrid;
    reconstructionCaption_ = new QLabel;
    reconstructionCaption_->setObjectName(QStringLiteral("reconstructionCaption"));
    reconstructionCaption_->setWordWrap(true);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(reconstructionCaption_);  // above: in view even when the grid runs below the pane
    layout->addWidget(reconstructions_, 1);
    return page;
}

bool ResultsPage::showsReconstructions() const { return hasResults_ && !reconstructions_->rows().empty(); }

const SavedCombinedModel* ResultsPage::shownModel() const {
    if (shownResults_ && shownResults_->model) return &*shownResults_->model;
    const ProjectDocument* doc = session_->document();
    if (!doc || shownIndex_ < 0 || std::size_t(shownIndex_) >= doc->runs().size()) return nullptr;
    const auto& results = doc->runs()[std::size_t(shownIndex_)].results;  // the kept run's weights
    return results && results->model ? &*results->model : nullptr;
}

bool ResultsPage::showReconstructions() {
    ++reconstructionJob_;
    reconstructionsPending_ = false;
    const auto r = shownResults_;
    const Shape image = shownPlan_ ? shownPlan_->original.input : Shape{};
    const Index samples = r ? std::min<Index>(r->testTargets.rows(), ReconstructionGrid::maxSamples) : 0;
    if (!r || !shownPlan_ || shownPlan_->task != Task::Reconstruction || !isImage(image, r->testTargets.cols()) ||
        r->combinedTestOutput.rows() < samples || r->combinedTestOutput.cols() != r->testTargets.cols()) {
        reconstructions_->clear();
        return false;
    }
    const Matrix inputs = r->testTargets.topRows(samples);  // the scaled inputs, as the networks take them
    std::vector<ReconstructionGrid::Row> rows{{tr("input"), inputs, {}},
                                              {tr("combined"), r->combinedTestOutput.topRows(samples), {}}};
    const SavedCombinedModel* model = shownModel();
    const int n = shownPlan_->submodelCount();
    for (int i = 0; i < n && model; ++i)
        rows.push_back({tr("sub %1").arg(i + 1), Matrix(), producedBy(model->rule, i)});
    if (r->baseline && r->baselineTestOutput.rows() >= samples && r->baselineTestOutput.cols() == inputs.cols())
        rows.push_back({tr("baseline"), r->baselineTestOutput.topRows(samples), {}});
    reconstructions_->setRows(image, std::move(rows));

    QString caption = tr("The first %1 test inputs and each model's reconstructions.").arg(samples);
    if (!model) caption += tr(" The submodels need the run's trained weights, which were not kept.");
    else if (model->rule.strategy == Strategy::OutputSplit)
        caption += tr(" Each submodel produces only its share of the pixels (output split): hatched pixels are "
                      "other submodels'.");
    reconstructionCaption_->setText(caption);
    reconstructions_->setToolTip(caption);
    if (!model) return true;

    reconstructionsPending_ = true;
    const quint64 job = reconstructionJob_;
    auto* watcher = new QFutureWatcher<SubmodelRows>(this);
    connect(watcher, &QFutureWatcher<SubmodelRows>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != reconstructionJob_) return;  // another run shown meanwhile
        reconstructionsPending_ = false;
        SubmodelRows computed = watcher->future().result();
        if (!computed.error.isEmpty())
            reconstructionCaption_->setText(reconstructionCaption_->text() +
                                            tr(" The submodels could not be run: %1").arg(computed.error));
        for (int i = 0; i < int(computed.outputs.size()); ++i)
            reconstructions_->setRowValues(2 + i, std::move(computed.outputs[std::size_t(i)]));
    });
    watcher->setFuture(QtConcurrent::run([saved = *model, inputs] { return submodelReconstructions(saved, inputs); }));
    return true;
}

}  // namespace skynnet::ui
