// The Results page's arrangement for its width: on a wide page the comparison and its charts
// beside the Errors box, the matrix over the per-class table; on a narrow one (a 1024-pixel
// screen) the Errors box under the comparison, across the whole width, with the matrix beside the
// table, and the results pane scrolls. Either way the matrix's scroll area is as tall as the
// matrix needs, so the pane scrolls rather than the matrix inside it.
#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <algorithm>

#include "ui/widgets/confusion_matrix_widget.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/table_columns.h"

namespace skynnet::ui {
namespace {

// Below this page width the two halves are stacked: at 1024 x 680 (about 870 pixels of page) the
// Errors box beside the comparison had about 350 pixels, too few for ten classes' counts.
constexpr int sideBySideWidth = 1150;
// A matrix taller than this scrolls in its own area (fifty classes), not the whole pane.
constexpr int tallestMatrix = 560;

}  // namespace

bool ResultsPage::stacked() const { return content_->orientation() == Qt::Vertical; }

void ResultsPage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    reflow();
}

void ResultsPage::reflow() {
    const int errorsShare = width() * 2 / 5;  // buildContent's stretch factors, 3 : 2
    const bool beside = width() >= sideBySideWidth && errorsShare >= confusion_->minimumSizeHint().width() + 24;
    const Qt::Orientation wanted = beside ? Qt::Horizontal : Qt::Vertical;
    if (content_->orientation() != wanted) {
        content_->setOrientation(wanted);
        classPane_->setOrientation(beside ? Qt::Vertical : Qt::Horizontal);
        if (beside) content_->setSizes({width() * 3 / 5, errorsShare});
    }
    fitErrorsPane();
}

void ResultsPage::fitErrorsPane() {
    const int need = confusion_->minimumSizeHint().height() + 2 * matrixScroll_->frameWidth();
    matrixScroll_->setMinimumHeight(std::min(need, tallestMatrix));
    // Stacked, the per-class table is as wide as its columns and the matrix has the rest.
    if (stacked()) {
        classTable_->setFixedWidth(leastTableWidth(classTable_));
    } else {
        classTable_->setMinimumWidth(0);
        classTable_->setMaximumWidth(QWIDGETSIZE_MAX);
    }
}

}  // namespace skynnet::ui
