#include "ui/widgets/data_page.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/core/app_settings.h"
#include "ui/core/dataset_table_model.h"
#include "ui/core/training_session.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/data_options_panel.h"
#include "ui/widgets/dataset_views.h"
#include "ui/widgets/eliding_header_view.h"
#include "ui/widgets/examples.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/sample_grid.h"
#include "ui/widgets/session_guard.h"
#include "ui/widgets/table_columns.h"
#include "ui/widgets/text_data_group.h"

namespace skynnet::ui {

DataPage::DataPage(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QWidget* parent)
    : QWidget(parent), document_(document), session_(session), settings_(settings) {
    setAcceptDrops(true);
    buildBanners();
    QWidget* right = buildSidePanel();  // first: the views show the text group's labels
    QWidget* left = buildDataViews();

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({860, 480});  // scaled to the real width on first show

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buildToolbar());
    layout->addWidget(errorBanner_);
    layout->addWidget(busy_);
    layout->addWidget(split, 1);

    connect(document_, &ProjectDocument::dataChanged, this, &DataPage::refreshFromDocument);
    refreshFromDocument();
    refreshRecentMenu();
}

void DataPage::buildBanners() {
    errorBanner_ = new QLabel;
    errorBanner_->setObjectName(QStringLiteral("dataErrorBanner"));
    errorBanner_->setWordWrap(true);
    errorBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorBanner_->setStyleSheet(
        QStringLiteral("QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0;"
                       " border-radius: 4px; padding: 6px; }"));
    errorBanner_->hide();

    busy_ = new QWidget;
    auto* busyLayout = new QHBoxLayout(busy_);
    busyLayout->setContentsMargins(0, 0, 0, 0);
    auto* spinner = new QProgressBar;
    spinner->setRange(0, 0);  // indeterminate: the loaders do not report progress
    spinner->setMaximumWidth(160);
    spinner->setTextVisible(false);
    busyLabel_ = new QLabel;
    busyLayout->addWidget(spinner);
    busyLayout->addWidget(busyLabel_, 1);
    busy_->hide();
}

QWidget* DataPage::buildDataViews() {
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    preview_ = new QTableView;
    preview_->setObjectName(QStringLiteral("dataPreview"));
    preview_->setHorizontalHeader(new ElidingHeaderView(Qt::Horizontal, preview_));
    previewModel_ = new DatasetTableModel(this);
    preview_->setModel(previewModel_);
    preview_->setAlternatingRowColors(true);
    preview_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Fixed row heights and no resize-to-contents: 60,000 rows x 785 columns stay smooth.
    preview_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    preview_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    preview_->horizontalHeader()->setDefaultSectionSize(90);
    // A table of a few columns shows each whole; an image's hundreds keep the default width.
    fitColumnsToContents(preview_, {.measuredRows = 100, .measuredColumns = 64});
    connect(preview_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showSample(current.row()); });
    sampleGrid_ = new SampleGrid;
    gridScroll_ = new QScrollArea;
    gridScroll_->setWidget(sampleGrid_);
    gridScroll_->setWidgetResizable(true);
    gridScroll_->hide();
    skipped_ = new QListWidget;
    skipped_->setObjectName(QStringLiteral("skippedFiles"));
    skipped_->hide();
    auto* views = new QSplitter(Qt::Vertical);
    views->addWidget(gridScroll_);
    views->addWidget(preview_);
    views->setStretchFactor(0, 3);
    views->setStretchFactor(1, 1);
    views->setSizes({520, 200});  // the samples first; scaled to the real height on first show
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(summary_);
    leftLayout->addWidget(options_->textGroup()->summaryLabel());
    leftLayout->addWidget(options_->textGroup()->samplesLabel());
    leftLayout->addWidget(views, 1);
    leftLayout->addWidget(skipped_);
    return left;
}

QWidget* DataPage::buildSidePanel() {
    options_ = new DataOptionsPanel(document_);
    connect(options_, &DataOptionsPanel::reloadRequested, this, &DataPage::loadSettings);
    connect(options_, &DataOptionsPanel::problem, this, &DataPage::showError);
    connect(options_, &DataOptionsPanel::problemSolved, errorBanner_, &QWidget::hide);
    sampleImage_ = new QLabel;
    sampleImage_->setAlignment(Qt::AlignCenter);
    sampleImage_->hide();
    // Says what the picture is: without it a lone image sat above the chart, unexplained.
    sampleCaption_ = new QLabel;
    sampleCaption_->setObjectName(QStringLiteral("sampleCaption"));
    sampleCaption_->setAlignment(Qt::AlignCenter);
    sampleCaption_->setWordWrap(true);
    sampleCaption_->hide();
    classChart_ = new BarChart(tr("Class distribution"));
    classChart_->setHorizontal(true);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(options_);
    rightLayout->addWidget(sampleImage_);
    rightLayout->addWidget(sampleCaption_);
    rightLayout->addWidget(classChart_, 1);
    return right;
}

QLayout* DataPage::buildToolbar() {
    auto* open = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open file…"));
    open->setToolTip(tr("Open a CSV/TSV table or an IDX image file (MNIST family, plain or .gz)"));
    connect(open, &QPushButton::clicked, this, &DataPage::openFileDialog);
    auto* folder = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open folder…"));
    folder->setToolTip(tr("Open a folder with one subfolder per class, of PNG, JPEG or BMP images or of .txt texts"));
    connect(folder, &QPushButton::clicked, this, &DataPage::openFolderDialog);

    auto* fashion = new QPushButton(tr("Fashion-MNIST"));
    fashion->setEnabled(fashionMnistInstalled());
    fashion->setToolTip(fashionMnistInstalled()
                            ? tr("60,000 training and 10,000 test images from %1").arg(fashionMnistDirectory())
                            : tr("Install Debian's fashion-mnist package to get %1").arg(fashionMnistDirectory()));
    connect(fashion, &QPushButton::clicked, this, [this] { loadExample(QStringLiteral("fashion-mnist")); });

    examplesMenu_ = new QMenu(tr("&Examples"), this);
    examplesMenu_->setToolTipsVisible(true);
    for (const Example& e : availableExamples()) {
        QAction* a = examplesMenu_->addAction(e.title);
        a->setToolTip(e.description);
        connect(a, &QAction::triggered, this, [this, id = e.id] { loadExample(id); });
    }
    auto* examples = new QToolButton;
    examples->setText(tr("Examples"));
    examples->setMenu(examplesMenu_);
    examples->setPopupMode(QToolButton::InstantPopup);

    recentMenu_ = new QMenu(tr("Open R&ecent Data"), this);
    recentMenu_->setToolTipsVisible(true);
    auto* recent = new QToolButton;
    recent->setText(tr("Recent"));
    recent->setMenu(recentMenu_);
    recent->setPopupMode(QToolButton::InstantPopup);

    auto* hint = new QLabel(tr("or drop a file or folder here"));
    hint->setEnabled(false);
    auto* bar = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{open, folder, fashion, examples, recent, hint}) bar->addWidget(w);
    bar->addStretch();
    return bar;
}

void DataPage::openFileDialog() {
    const QString dir = settings_ ? settings_->lastDataFolder() : QString();
    const QString path = askForFile(this, {FileRequest::OpenFile, tr("Open data"), dir,
                                           tr("Data files (*.csv *.tsv *.txt *.gz *-ubyte *.idx*);;CSV/TSV (*.csv "
                                              "*.tsv *.txt);;IDX images (*ubyte* *.idx* *.gz);;All files (*)")});
    if (path.isEmpty()) return;
    if (settings_) settings_->setLastDataFolder(QFileInfo(path).absolutePath());
    loadFile(path);
}

void DataPage::openFolderDialog() {
    const QString dir = settings_ ? settings_->lastDataFolder() : QString();
    const QString path =
        askForFile(this,
                   {FileRequest::Folder, tr("Open a folder of images or texts (one subfolder per class)"), dir, {}});
    if (path.isEmpty()) return;
    if (settings_) settings_->setLastDataFolder(QFileInfo(path).absolutePath());
    loadFile(path);
}

void DataPage::loadFile(const QString& path) { load(settingsForFile(path), QString(), TextColumn::guessed); }

void DataPage::loadFileForTask(const QString& path, Task task) {
    ProjectDataSource s = settingsForFile(path);
    s.task = task;
    load(s, QString(), TextColumn::guessed);
}

ProjectDataSource DataPage::settingsForFile(const QString& path) {
    ProjectDataSource s;
    s.train.path = path.toStdString();
    const QFileInfo info(path);
    if (info.isDir()) {
        // Pixels 0..255; a "train" folder brings the "test" folder beside it along.
        s.scaling = Scaling::PixelRange;
        const QString test = info.dir().filePath(QStringLiteral("test"));
        if (info.fileName().compare(QLatin1String("train"), Qt::CaseInsensitive) == 0 && QFileInfo(test).isDir())
            s.test.path = test.toStdString();
        return s;
    }
    // An MNIST-style training file brings its t10k test file along when it sits beside it.
    if (info.fileName().startsWith(QLatin1String("train-")) && !isCsvPath(path)) {
        const QString test = info.dir().filePath(QStringLiteral("t10k-") + info.fileName().mid(6));
        if (QFileInfo::exists(test)) s.test.path = test.toStdString();
        s.scaling = Scaling::PixelRange;  // pixels 0..255
    }
    return s;
}

bool DataPage::loadExample(const QString& id) {
    const std::optional<ProjectDataSource> s = exampleSettings(id);
    if (!s) {
        showError(tr("The example '%1' is not available on this machine.").arg(id));
        return false;
    }
    load(*s, id);
    return true;
}

void DataPage::loadSettings(const ProjectDataSource& settings) { load(settings, QString()); }

void DataPage::load(const ProjectDataSource& settings, const QString& exampleId, TextColumn text) {
    const QString path = QString::fromStdString(settings.train.path);
    if (!confirmStopTraining(this, session_, tr("open %1").arg(dataDisplayName(path)))) return;
    const quint64 generation = ++generation_;  // a newer load makes older results stale
    ++loading_;
    busyLabel_->setText(tr("Loading %1…").arg(dataDisplayName(path)));
    busy_->show();
    emit loadStarted(path);
    auto* watcher = new QFutureWatcher<LoadedData>(this);
    connect(watcher, &QFutureWatcher<LoadedData>::finished, this,
            [this, watcher, generation, settings, exampleId] { onLoaded(watcher, generation, settings, exampleId); });
    watcher->setFuture(loadDataAsync(settings, text));
}

void DataPage::onLoaded(QFutureWatcher<LoadedData>* watcher, quint64 generation, const ProjectDataSource& settings,
                        const QString& exampleId) {
    const QString path = QString::fromStdString(settings.train.path);
    watcher->deleteLater();
    if (--loading_ == 0) {
        busy_->setVisible(!elsewhereBusy_.isEmpty());
        busyLabel_->setText(elsewhereBusy_);
    }
    if (generation != generation_) return;  // superseded by a later load
    QString error;
    QStringList warnings;
    try {
        LoadedData data = watcher->future().result();       // rethrows the loader's DataLoadError
        const ProjectDataSource& settings = data.settings;  // with the text column found, if one was
        for (const std::string& w : data.warnings) warnings << tr("Warning: %1").arg(QString::fromStdString(w));
        if (session_ && session_->running()) {  // started while we loaded: never swap data under a run
            session_->stop();
            session_->waitForFinished();
        }
        const ProjectDataSource& current = document_->dataSettings();
        const bool sameFiles = document_->hasData() && settings.train.path == current.train.path &&
                               settings.trainLabels.path == current.trainLabels.path &&
                               settings.test.path == current.test.path &&
                               settings.testLabels.path == current.testLabels.path;
        // Another target column or task of the same files is an edit of the data's options;
        // other files are a new start.
        if (sameFiles && !(settings == current) && exampleId.isEmpty())
            document_->editData(settings, std::move(data.train), std::move(data.test));
        else document_->setData(settings, std::move(data.train), std::move(data.test));
        if (!exampleId.isEmpty()) applyExampleProject(document_, exampleId);
    } catch (const DataLoadError& e) {
        error = e.message();
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    lastOk_ = error.isEmpty();
    if (lastOk_) {
        showProblem(warnings.join(QLatin1Char('\n')));  // hidden without warnings
        if (settings_ && !path.startsWith(QLatin1String("builtin:")) && exampleId.isEmpty()) {
            settings_->addRecentFile(QFileInfo(path).absoluteFilePath());
            refreshRecentMenu();
        }
        emit loadFinished(true, tr("Loaded %1").arg(dataDisplayName(path)));
        return;
    }
    QString text = tr("Could not load %1:\n%2").arg(dataDisplayName(path), error);
    if (document_->hasData())
        text += tr("\nThe previous dataset (%1) is still loaded.")
                    .arg(dataDisplayName(QString::fromStdString(document_->dataSettings().train.path)));
    showError(text);
    emit loadFinished(false, error);
}

bool DataPage::waitForLoad(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (isLoading() && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return !isLoading() && lastOk_;
}

void DataPage::showBusy(const QString& text) {
    elsewhereBusy_ = text;
    if (loading_ > 0) return;  // the page's own load keeps its line until it ends
    busyLabel_->setText(text);
    busy_->setVisible(!text.isEmpty());
}

QString DataPage::errorText() const { return errorBanner_->isHidden() ? QString() : errorBanner_->text(); }

void DataPage::showProblem(const QString& text) {
    if (text.isEmpty()) errorBanner_->hide();
    else showError(text);
}

void DataPage::showError(const QString& text) {
    errorBanner_->setText(text);
    errorBanner_->show();
}

void DataPage::refreshFromDocument() {
    const ProjectDataSource& s = document_->dataSettings();
    const auto data = document_->dataset();
    if (previewModel_->dataset() != data) {
        previewModel_->setDataset(data);
        // Texts take the width the table has; other columns keep a fixed width each.
        preview_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
        if (previewModel_->rawText()) preview_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    }
    if (!data) {
        summary_->setText(tr("No data loaded. Open a file, drop one here, or pick an example."));
    } else {
        const QString what = data->task == Task::Reconstruction
                                 ? tr("%1 outputs (the input itself)").arg(data->outputCount())
                             : data->task == Task::Regression
                                 ? (data->targets.cols() == 1 ? tr("1 target column")
                                                              : tr("%1 target columns").arg(data->targets.cols()))
                                 : tr("%1 classes").arg(data->classCount());
        const QString inputs = data->isText() ? tr("texts") : tr("%1 features").arg(data->features.cols());
        QString text = tr("<b>%1</b> — %2 samples · %3 · %4 · %5")
                           .arg(dataDisplayName(QString::fromStdString(s.train.path)).toHtmlEscaped())
                           .arg(data->size())
                           .arg(inputs, what, QString::fromStdString(taskName(data->task)));
        const Shape shape = data->sampleShape;
        if (shape.height > 1) text += tr(" · images %1×%2×%3").arg(shape.channels).arg(shape.height).arg(shape.width);
        if (const auto test = document_->testDataset())
            text += tr("<br>Test file: %1 (%2 samples)")
                        .arg(dataDisplayName(QString::fromStdString(s.test.path)).toHtmlEscaped())
                        .arg(test->size());
        if (data->skipped.size() == 1) text += tr("<br>1 file could not be read and was skipped (below).");
        else if (!data->skipped.empty())
            text += tr("<br>%1 files could not be read and were skipped (below).").arg(data->skipped.size());
        summary_->setText(text);
    }
    sampleGrid_->setDataset(data);
    gridScroll_->setVisible(!sampleGrid_->isEmpty());
    skipped_->clear();
    if (data)
        for (const SkippedFile& f : data->skipped)
            skipped_->addItem(
                tr("Skipped %1: %2").arg(QString::fromStdString(f.path), QString::fromStdString(f.reason)));
    // Up to four lines tall; more scroll.
    skipped_->setFixedHeight(skipped_->sizeHintForRow(0) * std::min(skipped_->count(), 4) + 2 * skipped_->frameWidth() +
                             2);
    skipped_->setVisible(skipped_->count() > 0);
    options_->refresh();
    showDistribution(classChart_, data.get());
    showSample(0);
}

void DataPage::showSample(int row) {
    const auto data = document_->dataset();
    const QPixmap picture = data ? samplePixmap(*data, row, 4) : QPixmap();
    sampleImage_->setVisible(!picture.isNull());
    sampleCaption_->setVisible(!picture.isNull());
    if (picture.isNull()) return;
    sampleImage_->setPixmap(picture);
    QString label;
    if (data->task != Task::Regression && row < int(data->labels.size()))
        label = QString::fromStdString(data->classNames[std::size_t(data->labels[std::size_t(row)])]);
    sampleCaption_->setText(label.isEmpty() ? tr("Row %1 of the table, as an image").arg(row + 1)
                                            : tr("Row %1 of the table, as an image: %2").arg(row + 1).arg(label));
    const QString tip = tr("The row selected in the table, drawn as its image; select another row to see it");
    sampleImage_->setToolTip(tip);
    sampleCaption_->setToolTip(tip);
}

void DataPage::refreshRecentMenu() {
    recentMenu_->clear();
    const QStringList files = settings_ ? settings_->recentFiles() : QStringList();
    for (const QString& f : files) {
        QAction* a = recentMenu_->addAction(QFileInfo(f).fileName());
        a->setToolTip(f);
        connect(a, &QAction::triggered, this, [this, f] { loadFile(f); });
    }
    if (files.isEmpty()) recentMenu_->addAction(tr("(no recent files)"))->setEnabled(false);
}

void DataPage::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile()) event->acceptProposedAction();
}

void DataPage::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    event->acceptProposedAction();
    loadFile(urls.first().toLocalFile());
}

}  // namespace skynnet::ui
