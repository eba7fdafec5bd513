#include "ui/widgets/network_diagram.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>

#include "ui/core/network_figures.h"
#include "ui/core/project_document.h"
#include "ui/widgets/theme.h"

namespace skynnet::ui {
namespace {

constexpr int margin = 6;
constexpr int blockHeight = 36;
constexpr int arrowGap = 14;  // between two blocks, for the arrow
constexpr int preferredWidth = 150;

NetworkDiagram::BlockKind kindOf(const LayerSpec& layer) {
    using K = NetworkDiagram::BlockKind;
    return visitLayer(
        layer, [](const DenseSpec&) { return K::Dense; }, [](const DropoutSpec&) { return K::Other; },
        [](const FlattenSpec&) { return K::Other; }, [](const ConvSpec&) { return K::Conv; },
        [](const MaxPoolSpec&) { return K::Pool; }, [](const AvgPoolSpec&) { return K::Pool; },
        [](const GlobalAvgPoolSpec&) { return K::Pool; }, [](const BatchNormSpec&) { return K::Other; },
        [](const ActivationSpec&) { return K::Other; }, [](const EmbeddingSpec&) { return K::Embedding; },
        [](const GruSpec&) { return K::Recurrent; }, [](const LstmSpec&) { return K::Recurrent; },
        [](const SeqPoolSpec&) { return K::Pool; }, [](const PatchSpec&) { return K::Embedding; },
        [](const LayerNormSpec&) { return K::Other; }, [](const AttentionSpec&) { return K::Recurrent; },
        [](const EncoderSpec&) { return K::Recurrent; });
}

// Each kind's hue (the charts' Tableau colours), tinted over the palette's base: pale on a light
// palette, deep on a dark one, so the palette's own text reads on every block.
QColor hueOf(NetworkDiagram::BlockKind kind) {
    switch (kind) {
    case NetworkDiagram::BlockKind::Input: return QColor(127, 127, 127);
    case NetworkDiagram::BlockKind::Conv: return QColor(31, 119, 180);
    case NetworkDiagram::BlockKind::Pool: return QColor(44, 160, 44);
    case NetworkDiagram::BlockKind::Dense: return QColor(255, 127, 14);
    case NetworkDiagram::BlockKind::Recurrent: return QColor(23, 190, 207);
    case NetworkDiagram::BlockKind::Embedding: return QColor(227, 119, 194);
    case NetworkDiagram::BlockKind::Other: return QColor(148, 103, 189);
    case NetworkDiagram::BlockKind::Output: return QColor(230, 110, 0);
    }
    return QColor(127, 127, 127);
}

const QColor problemHue(214, 39, 40);

bool isUnknown(const NetworkDiagram::Block& b) { return b.shape == QStringLiteral("?"); }

}  // namespace

NetworkDiagram::NetworkDiagram(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setMouseTracking(true);
}

void NetworkDiagram::setNetwork(const NetworkSpec& spec) {
    const std::vector<LayerRowFigures> rows = layerRowFigures(spec);
    std::vector<Block> blocks;
    blocks.push_back({QStringLiteral("input"), shapeText(spec.input), {}, BlockKind::Input});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const LayerRowFigures& r = rows[i];
        const bool output = i == spec.layers.size();
        Block b;
        b.kind = output ? BlockKind::Output : kindOf(spec.layers[i]);
        b.title = output ? QStringLiteral("output %1 %2")
                               .arg(spec.outputs)
                               .arg(QString::fromStdString(activationName(spec.outputActivation)))
                         : QString::fromStdString(description(spec.layers[i]));
        b.shape = r.figures             ? shapeText(r.figures->output)
                  : r.problem.isEmpty() ? QStringLiteral("?")
                                        : tr("impossible");
        b.problem = r.problem;
        blocks.push_back(std::move(b));
    }
    const bool sameBlocks =
        blocks.size() == blocks_.size() &&
        std::equal(blocks.begin(), blocks.end(), blocks_.begin(), [](const Block& a, const Block& b) {
            return a.title == b.title && a.shape == b.shape && a.problem == b.problem && a.kind == b.kind;
        });
    if (sameBlocks) return;
    const bool resized = blocks.size() != blocks_.size();
    blocks_ = std::move(blocks);
    if (resized) updateGeometry();
    update();
}

void NetworkDiagram::follow(ProjectDocument* document) {
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    if (!document_) return;
    connect(document_, &ProjectDocument::networkChanged, this, [this] { setNetwork(document_->network()); });
    setNetwork(document_->network());
}

void NetworkDiagram::setTitle(const QString& title) {
    if (title == title_) return;
    title_ = title;
    updateGeometry();
    update();
}

QStringList NetworkDiagram::blockTexts() const {
    QStringList texts;
    for (const Block& b : blocks_) texts << b.title + QStringLiteral(" · ") + b.shape;
    return texts;
}

int NetworkDiagram::titleHeight() const { return title_.isEmpty() ? 0 : fontMetrics().height() + 6; }

QSize NetworkDiagram::sizeHint() const {
    const int n = int(blocks_.size());
    return {preferredWidth, 2 * margin + titleHeight() + n * blockHeight + std::max(0, n - 1) * arrowGap};
}

QSize NetworkDiagram::minimumSizeHint() const { return {110, sizeHint().height()}; }

QRect NetworkDiagram::blockRect(int i) const {
    const int w = std::min(width() - 2 * margin, 260);
    const int x = (width() - w) / 2;
    return {x, margin + titleHeight() + i * (blockHeight + arrowGap), w, blockHeight};
}

QColor NetworkDiagram::blockFill(int i) const {
    const Block& b = blocks_.at(std::size_t(i));
    const QColor base = palette().color(QPalette::Base);
    const bool dark = base.lightness() < 128;
    if (!b.problem.isEmpty()) return blend(base, problemHue, dark ? 0.35 : 0.14);
    if (isUnknown(b)) return blend(base, palette().color(QPalette::Text), 0.05);
    const double strength = b.kind == BlockKind::Output ? 0.32 : 0.2;
    return blend(base, hueOf(b.kind), dark ? strength + 0.12 : strength);
}

QColor NetworkDiagram::blockTextColor(int i) const {
    const Block& b = blocks_.at(std::size_t(i));
    if (!b.problem.isEmpty())
        return palette().color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0xc0, 0xbc) : QColor(0x8a, 0x1c, 0x1c);
    if (isUnknown(b)) return palette().color(QPalette::PlaceholderText);
    return palette().color(QPalette::Text);
}

void NetworkDiagram::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    if (!title_.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(margin, margin, width() - 2 * margin, titleHeight()), Qt::AlignHCenter | Qt::AlignTop,
                   fontMetrics().elidedText(title_, Qt::ElideRight, width() - 2 * margin));
    }
    QFont small = font();
    if (font().pointSizeF() > 0) small.setPointSizeF(font().pointSizeF() * 0.9);
    const QFontMetrics fm(font()), sm(small);
    const QColor lineColor = blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.55);
    for (int i = 0; i < int(blocks_.size()); ++i) {
        const Block& b = blocks_[std::size_t(i)];
        const QRect r = blockRect(i);
        if (i > 0) {  // the arrow from the block above
            const int x = r.center().x(), top = r.top() - arrowGap + 1, tip = r.top() - 1;
            p.setPen(QPen(lineColor, 1.5));
            p.drawLine(x, top, x, tip - 4);
            QPainterPath head;
            head.moveTo(x, tip);
            head.lineTo(x - 4, tip - 6);
            head.lineTo(x + 4, tip - 6);
            head.closeSubpath();
            p.fillPath(head, lineColor);
        }
        const bool bad = !b.problem.isEmpty();
        p.setPen(
            QPen(bad ? problemHue : blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.45), bad ? 2 : 1));
        p.setBrush(blockFill(i));
        p.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
        const QRect text = r.adjusted(6, 2, -6, -2);
        p.setPen(blockTextColor(i));
        // A title too long for a narrow diagram (a submodel's) is drawn smaller, then without its
        // last word (the activation, which the tooltip still names), before it is cut.
        QFont titleFont = font();
        QString title = b.title;
        if (fm.horizontalAdvance(title) > text.width() && font().pointSizeF() > 0) {
            titleFont.setPointSizeF(
                std::max(font().pointSizeF() * 0.8, font().pointSizeF() * text.width() / fm.horizontalAdvance(title)));
            if (QFontMetrics(titleFont).horizontalAdvance(title) > text.width() && title.count(QLatin1Char(' ')) >= 2)
                title = title.section(QLatin1Char(' '), 0, -2);
        }
        p.setFont(titleFont);
        p.drawText(text, Qt::AlignHCenter | Qt::AlignTop,
                   QFontMetrics(titleFont).elidedText(title, Qt::ElideRight, text.width()));
        p.setFont(small);
        p.drawText(text, Qt::AlignHCenter | Qt::AlignBottom, sm.elidedText(b.shape, Qt::ElideRight, text.width()));
    }
}

bool NetworkDiagram::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        for (int i = 0; i < int(blocks_.size()); ++i) {
            if (!blockRect(i).contains(help->pos())) continue;
            const Block& b = blocks_[std::size_t(i)];
            QToolTip::showText(help->globalPos(),
                               b.problem.isEmpty() ? b.title + QStringLiteral(": ") + b.shape : b.problem, this);
            return true;
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

}  // namespace skynnet::ui
