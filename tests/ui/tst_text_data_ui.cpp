// Text data in the app (issue 26), driven like a user offscreen: a CSV of reviews opened from
// the Data page finds its text column, shows the vocabulary, the lengths against the tokens kept
// and samples as tokens, binds the designer's embeddings to the fitted vocabulary, trains a text
// classifier to a stated accuracy, and saves and reopens as the same project.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "data/prepared_data.h"
#include "data/text_vocabulary.h"
#include "export/onnx_export.h"
#include "io/atomic_file.h"
#include "io/json.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/dataset_table_model.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_options_panel.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/open_model_dialog.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/text_data_group.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int reviews = 300;
const char* const fillers[] = {"the", "film", "was", "a", "plot", "cast", "and", "very", "it", "so", "then"};

// Review n: 3 + n % 8 filler words, its number, and one word of its class: n % 2 == 0 is pos.
// So it has n % 8 + 5 tokens, and every review is different.
QString review(int n) {
    QStringList words;
    for (int i = 0; i < 3 + n % 8; ++i) words << fillers[(n * 7 + i * 3) % 11];
    words.insert(1, QString::number(n));
    const char* const pos[] = {"good", "great", "lovely"};
    const char* const neg[] = {"bad", "awful", "dull"};
    words.insert(int(n % words.size()), n % 2 == 0 ? pos[n % 3] : neg[n % 3]);
    return words.join(' ');
}
int tokensOf(int n) { return n % 8 + 5; }

void writeReviews(const QString& path) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
    QTextStream out(&f);
    out << "id,review,label\n";
    for (int n = 0; n < reviews; ++n) out << n << ",\"" << review(n) << "\"," << (n % 2 == 0 ? "pos" : "neg") << "\n";
}

}  // namespace

class TestTextDataUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString csv_;
    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        csv_ = dir_.filePath("reviews.csv");
        writeReviews(csv_);
        window_ = std::make_unique<MainWindow>(std::make_unique<AppSettings>(dir_.filePath("settings.ini")));
        window_->resize(1280, 860);
        window_->show();
    }
    void cleanupTestCase() { window_.reset(); }

    void openedCsvFindsItsTextColumn() {
        DataPage* page = window_->dataPage();
        page->loadFile(csv_);
        QVERIFY2(page->waitForLoad(hangGuardMs(30000)), qPrintable(page->errorText()));
        ProjectDocument* doc = window_->document();
        QCOMPARE(doc->dataSettings().textColumn, std::string("review"));
        QVERIFY(doc->dataset()->isText());
        QCOMPARE(doc->dataset()->size(), Index(reviews));
        QCOMPARE(doc->dataset()->classNames, (std::vector<std::string>{"neg", "pos"}));
        DataOptionsPanel* options = page->optionsPanel();
        QCOMPARE(options->textColumnBox()->currentData().toString(), QStringLiteral("review"));
        QVERIFY(!options->scalingBox()->isEnabled());  // token ids are never scaled
        // The preview shows the texts as one column beside the label.
        DatasetTableModel preview;
        preview.setDataset(doc->dataset());
        QCOMPARE(preview.columnCount(), 2);
        QCOMPARE(preview.headerData(0, Qt::Horizontal).toString(), QStringLiteral("review"));
        QCOMPARE(preview.index(3, 0).data().toString(), review(3));
        // The network reads 200 token ids (the default length).
        QCOMPARE(doc->network().input, Shape::steps(200, 1));

        // The vocabulary is the one training fits: on the training rows only, by the settings.
        TextDataGroup* text = options->textGroup();
        QVERIFY(text->isVisible());
        PreparationSettings settings = doc->dataSettings().preparation();
        const TextVocabulary expected = fitTextVocabulary(*doc->dataset(), settings);
        QCOMPARE(doc->textVocabulary()->tokens, expected.tokens);
        QVERIFY2(text->summaryLabel()->text().startsWith(QStringLiteral("Vocabulary: %1 ids (%2 tokens")
                                                             .arg(QLocale().toString(expected.size()))
                                                             .arg(QLocale().toString(int(expected.tokens.size())))),
                 qPrintable(text->summaryLabel()->text()));
        QVERIFY2(text->summaryLabel()->text().contains("median 8, 90% at most 12, longest 12."),
                 qPrintable(text->summaryLabel()->text()));
        QVERIFY(text->summaryLabel()->text().contains("No text is longer than 200 tokens."));
        // The first sample as tokens (all in the vocabulary: the first row is a training row or not,
        // so only its first words, fillers every row has, are sure to be known).
        QVERIFY2(text->samplesLabel()->text().startsWith(QStringLiteral("Sample 1: ") + review(0).section(' ', 0, 0)),
                 qPrintable(text->samplesLabel()->text()));

        // 6 tokens per text: the input follows, and the texts cut are counted; one undo step.
        const int undoBefore = doc->undoStack()->count();
        text->lengthBox()->setValue(6);
        emit text->lengthBox()->editingFinished();
        QCOMPARE(doc->dataSettings().text.maxLength, 6);
        QCOMPARE(doc->network().input, Shape::steps(6, 1));
        int cut = 0;
        for (int n = 0; n < reviews; ++n) cut += tokensOf(n) > 6;
        QVERIFY2(text->summaryLabel()->text().contains(
                     QStringLiteral("%1 of 300 texts (%2%) are longer than 6 and keep their first 6 tokens.")
                         .arg(cut)
                         .arg(QLocale().toString(100.0 * cut / reviews, 'f', 1))),
                 qPrintable(text->summaryLabel()->text()));
        QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
        doc->undoStack()->undo();
        QCOMPARE(doc->dataSettings().text.maxLength, 200);
        QCOMPARE(doc->network().input, Shape::steps(200, 1));
        QCOMPARE(text->lengthBox()->value(), 200);
    }

    void embeddingsFollowTheVocabularyAndTrain() {
        ProjectDocument* doc = window_->document();
        NetworkSpec n = doc->network();
        n.layers = parseLayers("embedding:16,seqpool:mean,dense:8:relu");
        doc->editNetwork(n);
        const int fitted = doc->textVocabulary()->size();
        QCOMPARE(std::get<EmbeddingSpec>(doc->network().layers[0]).vocabulary, fitted);
        LayerTableModel layers(doc);
        QCOMPARE(layers.problem(0), QString());
        QCOMPARE(layers.index(0, LayerTableModel::Params).data().toLongLong(), qlonglong(fitted) * 16);

        // A smaller cap: the vocabulary and the embedding shrink with it.
        TextDataGroup* text = window_->dataPage()->optionsPanel()->textGroup();
        text->vocabularyBox()->setValue(12);
        emit text->vocabularyBox()->editingFinished();
        QCOMPARE(doc->textVocabulary()->size(), 12);
        QCOMPARE(std::get<EmbeddingSpec>(doc->network().layers[0]).vocabulary, 12);
        doc->undoStack()->undo();
        QCOMPARE(std::get<EmbeddingSpec>(doc->network().layers[0]).vocabulary, fitted);

        ProjectTraining t = doc->trainSettings();
        t.config.epochs = 30;
        t.config.batchSize = 16;
        t.config.optimizer.learningRate = 0.01f;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->editTrainSettings(t);
        TrainingSession* session = window_->session();
        QSignalSpy finished(session, &TrainingSession::finished);
        session->start();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), hangGuardMs(120000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        const auto results = session->results();
        QVERIFY(results && results->model);
        // One word of each review tells its class: the split and the original both learn it.
        QVERIFY2(results->combinedMetric >= 0.9, qPrintable(QString::number(results->combinedMetric)));
        QVERIFY2(results->baselineMetric >= 0.9, qPrintable(QString::number(results->baselineMetric)));

        // Exported as ONNX from the app: the vocabulary goes beside the graph, as the CLI writes it.
        if (onnxExportAvailable()) {
            ExportDialog dialog(*results->model, dir_.filePath("reviews"));
            dialog.setFormat(ExportDialog::Onnx);
            QVERIFY2(dialog.exportNow(), qPrintable(dialog.statusText()));
            QCOMPARE(dialog.writtenFiles(),
                     (QStringList{dir_.filePath("reviews.onnx"), dir_.filePath("reviews.vocab.json")}));
            const Json vocabulary = parseJson(readFile(dir_.filePath("reviews.vocab.json").toStdString()));
            QCOMPARE(vocabularyFromJson(JsonField(vocabulary, "reviews.vocab.json")),
                     *results->model->schema.vocabulary);
        }

        // File > Open Model on the model saved natively: measured on the reviews themselves, by
        // the saved vocabulary (the file's texts go through its tokenizer, not the document's).
        const QString modelFile = dir_.filePath("reviews.skym");
        ExportDialog native(*results->model, modelFile);
        native.setFormat(ExportDialog::NativeModel);
        QVERIFY2(native.exportNow(), qPrintable(native.statusText()));
        OpenModelDialog opened(nullptr);
        QVERIFY2(opened.loadModel(modelFile), qPrintable(opened.statusText()));
        opened.setDataPath(csv_);
        QVERIFY2(opened.evaluate(), qPrintable(opened.statusText()));
        QVERIFY2(opened.metricText().startsWith("accuracy ") && opened.metricText().endsWith(" on 300 samples"),
                 qPrintable(opened.metricText()));
        QVERIFY2(opened.metricText().mid(9, 6).toDouble() >= 0.9, qPrintable(opened.metricText()));
        QVERIFY2(opened.savePredictions(dir_.filePath("predictions.csv")), qPrintable(opened.statusText()));
        QCOMPARE(opened.statusText(), "Wrote 300 predictions to " + dir_.filePath("predictions.csv"));

        // Saved and reopened: the same text column, settings, network and model.
        const QString project = dir_.filePath("reviews.skynnet");
        QVERIFY(window_->projectController()->saveTo(project));
        MainWindow other(std::make_unique<AppSettings>(dir_.filePath("other.ini")));
        other.show();
        QVERIFY(openAndWait(&other, project));
        const ProjectDataSource& reopened = other.document()->dataSettings();  // with the file's fingerprint
        QCOMPARE(reopened.train.path, doc->dataSettings().train.path);
        QCOMPARE(reopened.textColumn, std::string("review"));
        QCOMPARE(reopened.text, doc->dataSettings().text);
        QCOMPARE(other.document()->network(), doc->network());
        QVERIFY(other.document()->dataset()->isText());
        QCOMPARE(other.document()->textVocabulary()->tokens, doc->textVocabulary()->tokens);
        QVERIFY(other.document()->shownRunRecord() && other.document()->shownRunRecord()->results);
        QCOMPARE(other.document()->shownRunRecord()->results->model->weights, results->model->weights);
    }

    void noTextColumnReadsTheColumnsAsFeatures() {
        DataOptionsPanel* options = window_->dataPage()->optionsPanel();
        options->textColumnBox()->setCurrentIndex(0);
        emit options->textColumnBox()->activated(0);
        QVERIFY(window_->dataPage()->waitForLoad(hangGuardMs(30000)));
        ProjectDocument* doc = window_->document();
        QCOMPARE(doc->dataSettings().textColumn, std::string());
        QVERIFY(!doc->dataset()->isText());
        QCOMPARE(doc->dataset()->featureNames, (std::vector<std::string>{"id", "review"}));
        QVERIFY(!options->textGroup()->isVisible());
        QVERIFY(options->scalingBox()->isEnabled());
        doc->undoStack()->undo();  // the reload is one step: back to text
        QVERIFY(doc->dataset()->isText());
        QCOMPARE(doc->dataSettings().textColumn, std::string("review"));
    }
};

QTEST_MAIN(TestTextDataUi)
#include "tst_text_data_ui.moc"
