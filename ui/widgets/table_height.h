#pragma once
// A table as tall as its rows, beside or above widgets that take the rest of the page.
class QTableView;

namespace skynnet::ui {

// Caps a table's height at its header and rows, so the layout gives the rest to the widgets around
// it, and keeps up to `rowsAlwaysShown` of its rows in view; a longer table shrinks and scrolls.
void fitHeightToRows(QTableView* table, int rowsAlwaysShown);

}  // namespace skynnet::ui
