#pragma once
// Columns as wide as their contents, so no cell or header of a table is cut: each column gets the
// width of its widest cell (of the first rows measured) and of its header's name, and what room
// the view has left is shared out. When the names on one line do not leave room, the header
// (an ElidingHeaderView) grows to two lines and breaks them at a space ("Peak memory" over "(MB)");
// when even then the columns are wider than the view, the table scrolls sideways rather than
// cutting a text. The widths follow the model's changes and the view's size.
class QTableView;

namespace skynnet::ui {

struct ColumnFit {
    // The column that takes the room left over, or -1 to share it out evenly.
    int stretchColumn = -1;
    // How many rows are measured for a column's width (a preview of 60,000 rows measures a few).
    int measuredRows = 1000;
    // Columns beyond this many keep their width (a 785-column image table is measured for no one).
    int measuredColumns = 64;
};

// From now on; the table's model is set. The header becomes an ElidingHeaderView if it is not one.
void fitColumnsToContents(QTableView* table, const ColumnFit& fit = {});
// The least width that shows a table's columns whole (names on two lines where they break), its
// frame and a scroll bar's room included: what a layout gives it to keep it from scrolling sideways.
int leastTableWidth(const QTableView* table);

}  // namespace skynnet::ui
