#pragma once
// What the window shows before anything is open: the ways to begin (open data, an image folder,
// a project or a model file), the recent projects and data files, and the examples with the
// ready example project. Nothing is loaded until the user picks something here (or asks for it
// on the command line). Each choice is a signal; the main window does the opening.
#include <QList>
#include <QWidget>

class QAbstractButton;
class QVBoxLayout;

namespace skynnet::ui {

class AppSettings;

class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(AppSettings* settings, QWidget* parent = nullptr);

    void refresh();  // the recent lists, from the settings
    QList<QAbstractButton*> recentProjectButtons() const { return recentProjects_; }
    QList<QAbstractButton*> recentDataButtons() const { return recentData_; }
    QList<QAbstractButton*> exampleButtons() const { return examples_; }

signals:
    void openDataRequested();
    void openFolderRequested();
    void openProjectRequested();
    void openModelRequested();
    void projectChosen(const QString& path);
    void dataChosen(const QString& path);
    void exampleChosen(const QString& id);

protected:
    void showEvent(QShowEvent* event) override;

private:
    AppSettings* settings_;
    QVBoxLayout* recentLayout_;
    QList<QAbstractButton*> recentProjects_, recentData_, examples_;
};

}  // namespace skynnet::ui
