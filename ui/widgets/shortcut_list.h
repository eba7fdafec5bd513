#pragma once
// Help > Keyboard Shortcuts: every shortcut of the menus, read from the actions themselves, so
// the list cannot drift from what the keys do.
#include <QDialog>
#include <QList>
#include <QString>

class QMenuBar;
class QTableWidget;

namespace skynnet::ui {

struct ShortcutEntry {
    QString menu;     // "File", "Train" (submenus as "File > Examples")
    QString command;  // the action's text without its mnemonic, e.g. "Open Project…"
    QString keys;     // every shortcut of the action, e.g. "F5, Ctrl+R" (native text)
};

// In menu order; actions without a shortcut are left out.
QList<ShortcutEntry> shortcutEntries(const QMenuBar* menuBar);

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }

private:
    QTableWidget* table_;
};

}  // namespace skynnet::ui
