#pragma once
// A drawn network: one block per layer from the input to the output, each with the layer's kind
// and settings and its output shape (C×H×W, steps × features), joined by arrows and coloured by kind in tints of the
// palette's base (pale on a light palette, deep on a dark one). A layer that
// cannot take its input is drawn red with the engine's message as its tooltip. A compound layer
// (an encoder block, attention, a patch layer) is one block with a ▸ that a click opens, to show
// its inside step by step below it (layer_inside.h), and closes again. The Network page
// shows the document's network (follow()), the Split page one diagram per submodel (setNetwork()).
#include <QPointer>
#include <QWidget>
#include <vector>

#include "spec/network_spec.h"
#include "ui/core/layer_inside.h"

namespace skynnet::ui {

class ProjectDocument;

class NetworkDiagram : public QWidget {
    Q_OBJECT
public:
    enum class BlockKind { Input, Conv, Pool, Dense, Recurrent, Embedding, Attention, Other, Output };
    struct Block {
        QString title;    // "conv 32 3x3 relu", "input", "output 10 softmax"
        QString shape;    // "32×26×26", "128"; "impossible" or "?" when unknown
        QString problem;  // the engine's message for an impossible layer
        BlockKind kind = BlockKind::Other;
        std::vector<InsideStep> inside;  // a compound layer's steps; empty for the others
    };

    explicit NetworkDiagram(QWidget* parent = nullptr);

    void setNetwork(const NetworkSpec& spec);
    // Shows the document's network now and after every networkChanged.
    void follow(ProjectDocument* document);
    void setTitle(const QString& title);  // drawn above the blocks; empty: none
    QString title() const { return title_; }

    const std::vector<Block>& blocks() const { return blocks_; }
    // "title · shape" per block, input first: what the diagram says, for tests and tooltips.
    QStringList blockTexts() const;

    // How block i is painted, from the palette: its kind's hue over the base, and the text on it.
    QColor blockFill(int i) const;
    QColor blockTextColor(int i) const;
    QRect blockRect(int i) const;
    // Whether block i has an inside to show, is showing it, and the rectangle of its step j.
    bool canOpen(int i) const { return !blocks_.at(std::size_t(i)).inside.empty(); }
    bool isOpen(int i) const;
    void setOpen(int i, bool open);
    QRect stepRect(int i, int j) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;                 // a tooltip per block
    void mousePressEvent(QMouseEvent* event) override;  // opens or closes a compound block
    void mouseMoveEvent(QMouseEvent* event) override;   // a pointing hand over one

private:
    int titleHeight() const;
    int insideHeight(int i) const;  // below block i while it is open
    int blockAt(QPoint pos) const;  // -1 for none
    void paintInside(QPainter& p, int i) const;

    QPointer<ProjectDocument> document_;
    QString title_;
    std::vector<Block> blocks_;
    std::vector<bool> open_;  // per block
};

}  // namespace skynnet::ui
