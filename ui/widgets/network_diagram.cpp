#include "ui/widgets/network_diagram.h"

#include <QHelpEvent>
#include <QMouseEvent>
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
constexpr int stepHeight = 30;  // a step inside an opened block
constexpr int stepGap = 6;
constexpr int stepIndent = 14;

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
        [](const LayerNormSpec&) { return K::Other; }, [](const AttentionSpec&) { return K::Attention; },
        [](const EncoderSpec&) { return K::Attention; });
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
    case NetworkDiagram::BlockKind::Attention: return QColor(188, 189, 34);
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
        if (!output && r.problem.isEmpty() && (i == 0 || rows[i - 1].figures))
            b.inside = layerInside(spec.layers[i], i == 0 ? spec.input : rows[i - 1].figures->output);
        blocks.push_back(std::move(b));
    }
    const bool sameBlocks = blocks.size() == blocks_.size() &&
                            std::equal(blocks.begin(), blocks.end(), blocks_.begin(),
                                       [](const Block& a, const Block& b) {
                                           return a.title == b.title && a.shape == b.shape && a.problem == b.problem &&
                                                  a.kind == b.kind && a.inside.size() == b.inside.size();
                                       });
    if (sameBlocks) return;
    // A block stays open through edits of its settings; one that has no inside any more closes.
    std::vector<bool> open(blocks.size(), false);
    for (std::size_t i = 0; i < std::min(open_.size(), blocks.size()); ++i)
        open[i] = open_[i] && !blocks[i].inside.empty();
    const bool resized = blocks.size() != blocks_.size() || open != open_;
    blocks_ = std::move(blocks);
    open_ = std::move(open);
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

bool NetworkDiagram::isOpen(int i) const { return i >= 0 && i < int(open_.size()) && open_[std::size_t(i)]; }

void NetworkDiagram::setOpen(int i, bool open) {
    if (i < 0 || i >= int(blocks_.size()) || !canOpen(i) || isOpen(i) == open) return;
    open_[std::size_t(i)] = open;
    updateGeometry();
    update();
}

int NetworkDiagram::insideHeight(int i) const {
    if (!isOpen(i)) return 0;
    return int(blocks_[std::size_t(i)].inside.size()) * (stepHeight + stepGap) + stepGap;
}

int NetworkDiagram::titleHeight() const { return title_.isEmpty() ? 0 : fontMetrics().height() + 6; }

QSize NetworkDiagram::sizeHint() const {
    const int n = int(blocks_.size());
    int inside = 0;
    for (int i = 0; i < n; ++i) inside += insideHeight(i);
    return {preferredWidth, 2 * margin + titleHeight() + n * blockHeight + std::max(0, n - 1) * arrowGap + inside};
}

QSize NetworkDiagram::minimumSizeHint() const { return {110, sizeHint().height()}; }

QRect NetworkDiagram::blockRect(int i) const {
    const int w = std::min(width() - 2 * margin, 260);
    const int x = (width() - w) / 2;
    int top = margin + titleHeight() + i * (blockHeight + arrowGap);
    for (int k = 0; k < i; ++k) top += insideHeight(k);
    return {x, top, w, blockHeight};
}

QRect NetworkDiagram::stepRect(int i, int j) const {
    const QRect b = blockRect(i);
    return {b.left() + stepIndent, b.bottom() + 1 + stepGap + j * (stepHeight + stepGap), b.width() - 2 * stepIndent,
            stepHeight};
}

int NetworkDiagram::blockAt(QPoint pos) const {
    for (int i = 0; i < int(blocks_.size()); ++i)
        if (blockRect(i).contains(pos)) return i;
    return -1;
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
        // An openable block keeps room at its right for the ▸ (closed) or ▾ (open) that says so.
        const int marker = canOpen(i) ? fm.horizontalAdvance(QStringLiteral("▾")) + 4 : 0;
        const QRect text = r.adjusted(6, 2, -6 - marker, -2);
        p.setPen(blockTextColor(i));
        if (marker > 0)
            p.drawText(r.adjusted(0, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter,
                       isOpen(i) ? QStringLiteral("▾") : QStringLiteral("▸"));
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
        if (isOpen(i)) paintInside(p, i);
    }
}

// The steps of an opened block, indented below it in a paler tint of its hue, joined by a line
// down their left side.
void NetworkDiagram::paintInside(QPainter& p, int i) const {
    const Block& b = blocks_[std::size_t(i)];
    const QColor base = palette().color(QPalette::Base);
    const QColor fill = blend(base, hueOf(b.kind), base.lightness() < 128 ? 0.18 : 0.09);
    const QColor edge = blend(base, palette().color(QPalette::Text), 0.35);
    QFont small = font();
    if (font().pointSizeF() > 0) small.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetrics sm(small);
    p.setFont(small);
    const QRect first = stepRect(i, 0), last = stepRect(i, int(b.inside.size()) - 1);
    p.setPen(QPen(edge, 1, Qt::DashLine));
    p.drawLine(first.left() - stepIndent / 2, blockRect(i).bottom() + 1, first.left() - stepIndent / 2,
               last.center().y());
    for (int j = 0; j < int(b.inside.size()); ++j) {
        const QRect r = stepRect(i, j);
        p.setPen(QPen(edge, 1));
        p.setBrush(fill);
        p.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        p.setPen(palette().color(QPalette::Text));
        const QRect text = r.adjusted(5, 1, -5, -1);
        p.drawText(text, Qt::AlignHCenter | Qt::AlignTop,
                   sm.elidedText(b.inside[std::size_t(j)].title, Qt::ElideRight, text.width()));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(text, Qt::AlignHCenter | Qt::AlignBottom,
                   sm.elidedText(b.inside[std::size_t(j)].shape, Qt::ElideRight, text.width()));
    }
}

void NetworkDiagram::mousePressEvent(QMouseEvent* event) {
    const int i = blockAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && i >= 0 && canOpen(i)) {
        setOpen(i, !isOpen(i));
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void NetworkDiagram::mouseMoveEvent(QMouseEvent* event) {
    const int i = blockAt(event->position().toPoint());
    setCursor(i >= 0 && canOpen(i) ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(event);
}

bool NetworkDiagram::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        for (int i = 0; i < int(blocks_.size()); ++i) {
            for (int j = 0; isOpen(i) && j < int(blocks_[std::size_t(i)].inside.size()); ++j) {
                if (!stepRect(i, j).contains(help->pos())) continue;
                const InsideStep& step = blocks_[std::size_t(i)].inside[std::size_t(j)];
                QToolTip::showText(help->globalPos(),
                                   step.title + QStringLiteral(": ") + step.shape +
                                       (step.detail.isEmpty() ? QString() : QStringLiteral("\n") + step.detail),
                                   this);
                return true;
            }
            if (!blockRect(i).contains(help->pos())) continue;
            const Block& b = blocks_[std::size_t(i)];
            const QString hint = !canOpen(i) ? QString()
                                 : isOpen(i) ? tr(" (click to close)")
                                             : tr(" (click to see inside)");
            QToolTip::showText(help->globalPos(),
                               b.problem.isEmpty() ? b.title + QStringLiteral(": ") + b.shape + hint : b.problem, this);
            return true;
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

}  // namespace skynnet::ui
