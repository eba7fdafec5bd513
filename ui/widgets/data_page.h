#pragma once
// Page 1, Data: open a file or an image folder (dialog, drag and drop, recent files) or an
// example, preview it (image data also as a grid of samples per class, with the files that could
// not be read), choose the target column and task, the scaling and the split fractions. Loading runs in the
// background; an error is shown in the page and the previous dataset stays loaded.
#include <QFutureWatcher>
#include <QWidget>

#include "ui/core/data_loading.h"
#include "ui/core/project_document.h"
#include "ui/widgets/project_views.h"

class QLabel;
class QListWidget;
class QMenu;
class QScrollArea;
class QPushButton;
class QTableView;

namespace skynnet::ui {

class AppSettings;
class BarChart;
class DataOptionsPanel;
class DatasetTableModel;
class SampleGrid;
class TrainingSession;

class DataPage : public QWidget, public ProjectDataView {
    Q_OBJECT
public:
    DataPage(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QWidget* parent = nullptr);

    // Like a user: each starts a background load (asking first if training runs) and returns.
    void loadFile(const QString& path);
    void loadFileForTask(const QString& path, Task task);  // the task chosen, not detected
    // An example with its project settings (examples.h); false if not available here.
    bool loadExample(const QString& id);
    void loadSettings(const ProjectDataSource& settings) override;
    void openFileDialog();
    void openFolderDialog();  // an image folder: one subfolder of images per class

    bool isLoading() const override { return loading_ > 0; }
    // Blocks with the event loop running until the pending load has ended; true if it succeeded.
    bool waitForLoad(int timeoutMs = 60000) override;
    QString errorText() const;  // the visible banner's text (an error, or a load's warnings); empty when hidden
    // Shows a problem in the page's banner (a project's data that moved), or hides the banner
    // when text is empty; a successful load hides it too.
    void showProblem(const QString& text) override;
    // The page's busy line for work done elsewhere (a project opening); empty text: done.
    void showBusy(const QString& text) override;
    QTableView* previewView() const { return preview_; }
    BarChart* classChart() const { return classChart_; }
    SampleGrid* sampleGrid() const { return sampleGrid_; }
    // The selected row's picture (image data) and the line under it saying which row and class.
    QLabel* sampleImage() const { return sampleImage_; }
    QLabel* sampleCaption() const { return sampleCaption_; }
    QListWidget* skippedList() const { return skipped_; }  // the training data's unreadable files
    QMenu* recentMenu() const { return recentMenu_; }
    QMenu* examplesMenu() const { return examplesMenu_; }
    DataOptionsPanel* optionsPanel() const { return options_; }

signals:
    void loadStarted(const QString& path);
    void loadFinished(bool ok, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QLayout* buildToolbar();
    void buildBanners();        // the error banner and the busy line
    QWidget* buildDataViews();  // summary, sample grid, preview table, skipped files
    QWidget* buildSidePanel();  // options, the selected sample's picture, class chart
    // loadFile's settings: the test file beside a training one, pixel scaling for images.
    static ProjectDataSource settingsForFile(const QString& path);
    // guessed: a file the user opened, whose text column (if any) is found (data_loading.h).
    void load(const ProjectDataSource& settings, const QString& exampleId, TextColumn text = TextColumn::asSettings);
    void onLoaded(QFutureWatcher<LoadedData>* watcher, quint64 generation, const ProjectDataSource& settings,
                  const QString& exampleId);
    void showError(const QString& text);
    void refreshFromDocument();  // summary, preview, chart, options
    void showSample(int row);    // image data: the selected row as a picture
    void refreshRecentMenu();

    ProjectDocument* document_;
    TrainingSession* session_;
    AppSettings* settings_;
    quint64 generation_ = 0;
    int loading_ = 0;
    QString elsewhereBusy_;  // showBusy's text
    bool lastOk_ = false;

    QLabel* errorBanner_ = nullptr;
    QWidget* busy_ = nullptr;
    QLabel* busyLabel_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableView* preview_ = nullptr;
    DatasetTableModel* previewModel_ = nullptr;
    DataOptionsPanel* options_ = nullptr;
    BarChart* classChart_ = nullptr;
    QLabel* sampleImage_ = nullptr;
    QLabel* sampleCaption_ = nullptr;  // what the picture is: which row, of which class
    SampleGrid* sampleGrid_ = nullptr;
    QScrollArea* gridScroll_ = nullptr;
    QListWidget* skipped_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* examplesMenu_ = nullptr;
};

}  // namespace skynnet::ui
