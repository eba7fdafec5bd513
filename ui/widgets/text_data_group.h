#pragma once
// The Data page's text settings and what they make of the texts (issue 26): the vocabulary cap
// and the tokens per text, then two labels, shown only for text, that the page places where
// there is width for them: the fitted vocabulary's size and how long the texts are against the
// tokens kept (how many are cut), and the first samples as the tokens the model reads. Edits go
// to the document as undoable steps; the texts stay loaded.
#include <QGroupBox>
#include <memory>

#include "data/text_summary.h"
#include "ui/core/project_document.h"

class QLabel;
class QSpinBox;

namespace skynnet::ui {

class TextDataGroup : public QGroupBox {
    Q_OBJECT
public:
    explicit TextDataGroup(ProjectDocument* document, QWidget* parent = nullptr);
    void refresh();  // widgets <- document; hidden unless the data is text
    QSpinBox* vocabularyBox() const { return vocabulary_; }
    QSpinBox* lengthBox() const { return length_; }
    QLabel* summaryLabel() const { return summary_; }  // vocabulary and lengths
    QLabel* samplesLabel() const { return samples_; }  // the first texts as tokens

private:
    void apply();
    QString summaryText(const TextVocabulary* vocabulary) const;
    QString samplesText(const TextVocabulary& vocabulary) const;

    ProjectDocument* document_;
    bool updating_ = false;
    QSpinBox* vocabulary_;
    QSpinBox* length_;
    QLabel* summary_;
    QLabel* samples_;
    // Token counts of the loaded texts, counted once per dataset.
    std::shared_ptr<const Dataset> lengthsOf_;
    TextLengths lengths_;
};

}  // namespace skynnet::ui
