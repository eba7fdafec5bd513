#include "ui/widgets/shortcut_list.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace skynnet::ui {
namespace {

// "&Open Project…" -> "Open Project…"; "&&" stays one ampersand.
QString withoutMnemonic(QString text) {
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

void collect(const QMenu* menu, const QString& path, QList<ShortcutEntry>& out) {
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator()) continue;
        if (const QMenu* sub = a->menu()) {
            collect(sub, path + QStringLiteral(" > ") + withoutMnemonic(sub->title()), out);
            continue;
        }
        const QList<QKeySequence> keys = a->shortcuts();
        if (keys.isEmpty()) continue;
        QStringList texts;
        for (const QKeySequence& k : keys) texts << k.toString(QKeySequence::NativeText);
        out.push_back({path, withoutMnemonic(a->text()), texts.join(QStringLiteral(", "))});
    }
}

}  // namespace

QList<ShortcutEntry> shortcutEntries(const QMenuBar* menuBar) {
    QList<ShortcutEntry> out;
    for (const QAction* a : menuBar->actions())
        if (const QMenu* menu = a->menu()) collect(menu, withoutMnemonic(menu->title()), out);
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    table_ = new QTableWidget(int(entries.size()), 3);
    table_->setHorizontalHeaderLabels({tr("Keys"), tr("Command"), tr("Menu")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    for (int r = 0; r < int(entries.size()); ++r) {
        const ShortcutEntry& e = entries[r];
        table_->setItem(r, 0, new QTableWidgetItem(e.keys));
        table_->setItem(r, 1, new QTableWidgetItem(e.command));
        table_->setItem(r, 2, new QTableWidgetItem(e.menu));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_);
    layout->addWidget(buttons);
    resize(560, 520);
}

}  // namespace skynnet::ui
