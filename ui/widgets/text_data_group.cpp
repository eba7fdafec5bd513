#include "ui/widgets/text_data_group.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <algorithm>

#include "data/text_vocabulary.h"

namespace skynnet::ui {
namespace {

constexpr int samplesShown = 3;
constexpr int tokensShownPerSample = 14;

QString number(long long n) { return QLocale().toString(n); }

}  // namespace

TextDataGroup::TextDataGroup(ProjectDocument* document, QWidget* parent)
    : QGroupBox(tr("Text"), parent), document_(document) {
    vocabulary_ = new QSpinBox;
    vocabulary_->setRange(3, maxVocabularySize);
    vocabulary_->setGroupSeparatorShown(true);
    vocabulary_->setSuffix(tr(" ids"));
    vocabulary_->setToolTip(tr("At most this many token ids: the most frequent tokens of the training texts, plus "
                               "padding and unknown (--vocab)"));
    length_ = new QSpinBox;
    length_->setRange(1, maxTextLength);
    length_->setGroupSeparatorShown(true);
    length_->setSuffix(tr(" tokens"));
    length_->setToolTip(tr("Each text becomes this many token ids: longer texts keep their first tokens, shorter ones "
                           "are padded in front (--max-length)"));
    summary_ = new QLabel(this);
    samples_ = new QLabel(this);
    for (QLabel* l : {summary_, samples_}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->hide();
    }
    samples_->setToolTip(tr("The first samples as the network reads them: · between tokens, ∅ for a token outside "
                            "the vocabulary (unknown)"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Vocabulary:"), vocabulary_);
    form->addRow(tr("Text length:"), length_);
    for (QSpinBox* b : {vocabulary_, length_}) {
        connect(b, &QSpinBox::valueChanged, this, &TextDataGroup::apply);
        // Typing "200" is one undoable step, ended when the box loses focus or Enter is pressed.
        connect(b, &QAbstractSpinBox::editingFinished, document_, &ProjectDocument::sealEdits);
    }
    refresh();
}

void TextDataGroup::refresh() {
    const auto data = document_->dataset();
    const bool text = data && data->isText();
    setVisible(text);
    summary_->setVisible(text);
    samples_->setVisible(text);
    if (!text) return;
    updating_ = true;
    const TextSettings& s = document_->dataSettings().text;
    vocabulary_->setValue(s.vocabularySize);
    length_->setValue(s.maxLength);
    updating_ = false;
    if (lengthsOf_ != data) {
        lengths_ = textLengths(data->texts);
        lengthsOf_ = data;
    }
    const auto vocabulary = document_->textVocabulary();
    summary_->setText(summaryText(vocabulary.get()));
    samples_->setText(vocabulary ? samplesText(*vocabulary) : QString());
}

void TextDataGroup::apply() {
    if (updating_ || !document_->hasData()) return;
    ProjectDataSource s = document_->dataSettings();
    s.text.vocabularySize = vocabulary_->value();
    s.text.maxLength = length_->value();
    document_->editDataSettings(s);  // one undoable step (merged while typing)
}

QString TextDataGroup::summaryText(const TextVocabulary* vocabulary) const {
    const int texts = int(lengths_.sorted.size());
    const int maxLength = document_->dataSettings().text.maxLength;
    QString text = vocabulary ? tr("Vocabulary: %1 ids (%2 tokens of the training texts, padding and unknown).")
                                    .arg(number(vocabulary->size()), number(long(vocabulary->tokens.size())))
                              : tr("No vocabulary: these settings cannot be fitted.");
    text += QLatin1Char(' ') +
            tr("Tokens per text: median %1, 90% at most %2, longest %3.")
                .arg(number(lengths_.median()), number(lengths_.percentile90()), number(lengths_.longest()));
    const int cut = lengths_.longerThan(maxLength);
    text += QLatin1Char(' ') +
            (cut == 0 ? tr("No text is longer than %1 tokens.").arg(number(maxLength))
                      : tr("%1 of %2 texts (%3%) are longer than %4 and keep their first %4 tokens.")
                            .arg(number(cut), number(texts),
                                 QLocale().toString(100.0 * cut / std::max(texts, 1), 'f', 1), number(maxLength)));
    return text;
}

QString TextDataGroup::samplesText(const TextVocabulary& vocabulary) const {
    const auto data = document_->dataset();
    QStringList lines;
    for (int r = 0; r < std::min<int>(samplesShown, int(data->texts.size())); ++r) {
        const std::vector<std::string> tokens = tokenizeText(data->texts[std::size_t(r)]);
        QStringList shown;
        for (std::size_t i = 0; i < tokens.size() && int(i) < std::min(tokensShownPerSample, vocabulary.maxLength); ++i)
            shown << (vocabulary.idOf(tokens[i]) == TextVocabulary::unknownId ? QStringLiteral("∅")
                                                                              : QString::fromStdString(tokens[i]));
        const bool more = int(tokens.size()) > int(shown.size());
        lines << tr("Sample %1: %2%3 (%4 tokens)")
                     .arg(r + 1)
                     .arg(shown.join(QStringLiteral(" · ")).toHtmlEscaped(), more ? QStringLiteral(" …") : QString())
                     .arg(number(long(tokens.size())));
    }
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace skynnet::ui
