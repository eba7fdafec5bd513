#include "ui/widgets/table_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <algorithm>
#include <vector>

#include "ui/widgets/eliding_header_view.h"

namespace skynnet::ui {
namespace {

class ColumnFitter : public QObject {
public:
    ColumnFitter(QTableView* table, const ColumnFit& fit) : QObject(table), table_(table), fit_(fit) {
        auto* header = qobject_cast<ElidingHeaderView*>(table->horizontalHeader());
        if (!header) {
            header = new ElidingHeaderView(Qt::Horizontal, table);
            table->setHorizontalHeader(header);
        }
        header_ = header;
        header_->setSectionResizeMode(QHeaderView::Interactive);
        header_->setStretchLastSection(false);
        header_->setResizeContentsPrecision(fit.measuredRows);
        table->viewport()->installEventFilter(this);
        QAbstractItemModel* model = table->model();
        const auto refit = [this] { this->refit(); };
        connect(model, &QAbstractItemModel::modelReset, this, refit);
        connect(model, &QAbstractItemModel::layoutChanged, this, refit);
        connect(model, &QAbstractItemModel::rowsInserted, this, refit);
        connect(model, &QAbstractItemModel::rowsRemoved, this, refit);
        connect(model, &QAbstractItemModel::columnsInserted, this, refit);
        connect(model, &QAbstractItemModel::columnsRemoved, this, refit);
        connect(model, &QAbstractItemModel::dataChanged, this, refit);
        connect(model, &QAbstractItemModel::headerDataChanged, this, refit);
        refit();
    }

    void refit() {
        if (fitting_) return;
        fitting_ = true;
        // A sideways scroll bar that came or went changes the room: once more at the new width.
        for (int pass = 0; pass < 2; ++pass) {
            const int room = table_->viewport()->width();
            apply(room);
            if (table_->viewport()->width() == room) break;
        }
        fitting_ = false;
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == table_->viewport() && event->type() == QEvent::Resize) refit();
        return QObject::eventFilter(watched, event);
    }

private:
    void apply(int room) {
        if (header_->count() > fit_.measuredColumns) {  // too many to measure: the default widths
            header_->setLines(1);
            return;
        }
        const int n = header_->count();
        const QAbstractItemView* view = table_;  // QTableView hides the public sizeHintForColumn
        std::vector<int> oneLine(std::size_t(n), 0), twoLines(std::size_t(n), 0);
        int wantOne = 0, wantTwo = 0, shown = 0;
        for (int c = 0; c < n; ++c) {
            if (header_->isSectionHidden(c)) continue;
            const int cells = view->sizeHintForColumn(c);
            oneLine[std::size_t(c)] = std::max(cells, header_->widthFor(c, 1));
            twoLines[std::size_t(c)] = std::max(cells, header_->widthFor(c, 2));
            wantOne += oneLine[std::size_t(c)];
            wantTwo += twoLines[std::size_t(c)];
            ++shown;
        }
        if (shown == 0) return;
        const bool two = wantOne > room && wantTwo < wantOne;
        std::vector<int>& widths = two ? twoLines : oneLine;
        const int before = header_->sizeHint().height();
        header_->setLines(two ? 2 : 1);
        followHeaderHeight(header_->sizeHint().height() - before);
        // The room left: to the stretching column, else a share to each (the rest to the last).
        int left = std::max(0, room - (two ? wantTwo : wantOne));
        if (fit_.stretchColumn >= 0 && fit_.stretchColumn < n && !header_->isSectionHidden(fit_.stretchColumn)) {
            widths[std::size_t(fit_.stretchColumn)] += left;
            left = 0;
        }
        const int each = left / shown;
        int seen = 0;
        for (int c = 0; c < n; ++c) {
            if (header_->isSectionHidden(c)) continue;
            widths[std::size_t(c)] += ++seen == shown ? left - each * (shown - 1) : each;
            header_->resizeSection(c, widths[std::size_t(c)]);
        }
    }

    // A table sized to its rows (fitHeightToRows) keeps them in view under a taller header.
    void followHeaderHeight(int delta) {
        if (delta == 0) return;
        if (table_->maximumHeight() < QWIDGETSIZE_MAX) table_->setMaximumHeight(table_->maximumHeight() + delta);
        if (table_->minimumHeight() > 0) table_->setMinimumHeight(table_->minimumHeight() + delta);
    }

    QTableView* table_;
    ElidingHeaderView* header_;
    ColumnFit fit_;
    bool fitting_ = false;
};

}  // namespace

void fitColumnsToContents(QTableView* table, const ColumnFit& fit) { new ColumnFitter(table, fit); }

int leastTableWidth(const QTableView* table) {
    const QHeaderView* header = table->horizontalHeader();
    const auto* eliding = qobject_cast<const ElidingHeaderView*>(header);
    const QAbstractItemView* view = table;
    int width = 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
    if (!table->verticalHeader()->isHidden()) width += table->verticalHeader()->width();
    for (int c = 0; c < header->count(); ++c)
        if (!header->isSectionHidden(c))
            width += std::max(view->sizeHintForColumn(c),
                              eliding ? eliding->widthFor(c, 2) : header->sectionSizeHint(c));
    return width;
}

}  // namespace skynnet::ui
