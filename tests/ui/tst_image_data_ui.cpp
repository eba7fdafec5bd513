// The Data page on an image folder, driven like a user offscreen: the grid of samples per class
// with the class counts, the skipped files listed, and the image options reloading the folder.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "image_support.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/data_options_panel.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/sample_grid.h"

using namespace skynnet;
using namespace skynnet::ui;

class TestImageDataUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        window_ = std::make_unique<MainWindow>(std::make_unique<AppSettings>(dir_.filePath("settings.ini")));
        window_->resize(1280, 860);
        window_->show();
    }
    void cleanupTestCase() { window_.reset(); }

    void imageFolderShowsSamplesPerClassAndSkippedFiles() {
        const QString folder = dir_.filePath("pictures/train");
        writePatternFolder(folder, {"left", "right", "top"}, 3, 10);
        writePatternFolder(folder, {"left"}, 12, 10, 50);  // 12 more left ones: 15 in all
        writeBytes(folder + "/right/zz_damaged.png", "not a png");
        writePatternFolder(dir_.filePath("pictures/test"), {"left", "right", "top"}, 2, 10, 90);
        DataPage* page = window_->dataPage();
        page->loadFile(folder);
        QVERIFY(page->waitForLoad(30000));
        ProjectDocument* doc = window_->document();
        QCOMPARE(doc->dataset()->size(), Index(21));
        QCOMPARE(doc->dataset()->sampleShape, (Shape{1, 10, 10}));
        // The "test" folder beside "train" came along, and pixels share one range (pixel-range scaling).
        QVERIFY(doc->testDataset());
        QCOMPARE(doc->testDataset()->size(), Index(6));
        QCOMPARE(doc->dataSettings().scaling, Scaling::PixelRange);

        const SampleGrid* grid = page->sampleGrid();
        QVERIFY(grid->isVisible());
        QCOMPARE(grid->classRows().size(), std::size_t(3));
        QCOMPARE(grid->classRows()[0].name, QString("left"));
        QCOMPARE(grid->classRows()[0].count, 15);
        QCOMPARE(int(grid->classRows()[0].samples.size()), SampleGrid::perClass);  // the first 8 of 15
        QCOMPARE(grid->classRows()[1].count, 3);
        QCOMPARE(grid->classRows()[1].samples, (std::vector<int>{15, 16, 17}));  // right's rows follow left's 15
        QCOMPARE(page->classChart()->barCount(), 3);
        // The selected row's picture says what it is: row and class, under it (it stood unlabelled).
        QVERIFY(page->sampleImage()->isVisible());
        QVERIFY(page->sampleCaption()->isVisible());
        QCOMPARE(page->sampleCaption()->text(), QStringLiteral("Row 1 of the table, as an image: left"));
        QVERIFY(page->sampleCaption()->geometry().top() >= page->sampleImage()->geometry().bottom());
        page->previewView()->selectRow(16);
        QCOMPARE(page->sampleCaption()->text(), QStringLiteral("Row 17 of the table, as an image: right"));

        QVERIFY(page->skippedList()->isVisible());
        QCOMPARE(page->skippedList()->count(), 1);
        QVERIFY(page->skippedList()->item(0)->text().startsWith("Skipped " + folder + "/right/zz_damaged.png: "));
        QVERIFY(page->errorText().contains("1 of 22 image files could not be read and was skipped"));

        // Image options: RGB at 6x4 reloads the folder in that shape.
        DataOptionsPanel* options = page->optionsPanel();
        QVERIFY(options->imageGroup()->isVisible());
        options->channelsBox()->setCurrentIndex(options->channelsBox()->findData(3));
        options->imageHeightBox()->setValue(6);
        options->imageWidthBox()->setValue(4);
        emit options->imageWidthBox()->editingFinished();
        QVERIFY(page->waitForLoad(30000));
        QCOMPARE(doc->dataSettings().image.height, 6);
        QCOMPARE(doc->dataSettings().image.channels, 3);
        QCOMPARE(doc->dataset()->sampleShape, (Shape{3, 6, 4}));
        QCOMPARE(doc->testDataset()->sampleShape, (Shape{3, 6, 4}));
        QCOMPARE(sampleImage(*doc->dataset(), 0).format(), QImage::Format_RGB32);

        // Strict: the damaged file refuses the folder, and the loaded data stays.
        options->strictImagesBox()->setChecked(true);
        page->waitForLoad(30000);
        QVERIFY(page->errorText().contains(folder + "/right/zz_damaged.png: cannot read the image"));
        QCOMPARE(doc->dataset()->size(), Index(21));
    }

    void droppedFolderOpensAndItsProjectReopens() {
        const QString folder = dir_.filePath("dropped");
        writePatternFolder(folder, {"a", "b"}, 4, 12);
        DataPage* page = window_->dataPage();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(folder)});
        QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        // Straight to the page's handler: QApplication only delivers a drop during a real drag.
        static_cast<QObject*>(page)->event(&drop);
        QVERIFY2(page->waitForLoad(30000), qPrintable(page->errorText()));
        ProjectDocument* doc = window_->document();
        QCOMPARE(QString::fromStdString(doc->dataSettings().train.path), folder);
        QCOMPARE(doc->dataset()->size(), Index(8));
        ProjectDataSource s = doc->dataSettings();
        s.image.height = s.image.width = 5;
        page->loadSettings(s);
        QVERIFY(page->waitForLoad(30000));
        QCOMPARE(doc->dataset()->sampleShape, (Shape{1, 5, 5}));

        // Saved and opened in a fresh window: the folder found by its fingerprint, loaded 5x5 again.
        const QString project = dir_.filePath("images.skynnet");
        QVERIFY(window_->projectController()->saveTo(project));
        const ProjectData saved = loadProject(project.toStdString());
        QCOMPARE(saved.data.train.status, DataFileStatus::Found);
        QVERIFY(saved.data.train.fingerprint);
        QCOMPARE(saved.data.image.height, 5);
        MainWindow other(std::make_unique<AppSettings>(dir_.filePath("other.ini")));
        other.show();
        QSignalSpy opened(other.projectController(), &ProjectController::openFinished);
        QVERIFY(other.projectController()->openFile(project));
        QVERIFY(opened.count() == 1 || opened.wait(60000));
        QVERIFY(opened.at(0).at(0).toBool());
        QCOMPARE(other.document()->dataSettings().image, s.image);
        QCOMPARE(other.document()->dataset()->sampleShape, (Shape{1, 5, 5}));
        QCOMPARE(other.document()->dataset()->features, doc->dataset()->features);
        QCOMPARE(other.dataPage()->sampleGrid()->classRows().size(), std::size_t(2));
    }

    void nonImageDataHidesTheGrid() {
        DataPage* page = window_->dataPage();
        QVERIFY(page->loadExample(QStringLiteral("blobs")));
        QVERIFY(page->waitForLoad(30000));
        QVERIFY(page->sampleGrid()->isEmpty());
        QVERIFY(!page->sampleGrid()->isVisible());
        QVERIFY(!page->sampleImage()->isVisible());
        QVERIFY(!page->sampleCaption()->isVisible());
        QVERIFY(!page->skippedList()->isVisible());
        QVERIFY(!page->optionsPanel()->imageGroup()->isVisible());
    }
};

QTEST_MAIN(TestImageDataUi)
#include "tst_image_data_ui.moc"
