#include "ui/widgets/table_height.h"

#include <QHeaderView>
#include <QTableView>
#include <algorithm>

namespace skynnet::ui {

void fitHeightToRows(QTableView* table, int rowsAlwaysShown) {
    const QHeaderView* rows = table->verticalHeader();
    const int header = table->horizontalHeader()->isHidden() ? 0 : table->horizontalHeader()->sizeHint().height();
    const int frame = 2 * table->frameWidth() + 2;
    const int shown = std::min(rows->count(), rowsAlwaysShown);
    table->setMaximumHeight(header + rows->length() + frame);
    table->setMinimumHeight(header + shown * rows->defaultSectionSize() + frame);
}

}  // namespace skynnet::ui
