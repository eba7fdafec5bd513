#pragma once
// The undoable edits of a project. Each command holds the value before and after and applies it
// through the document's plain setters, which emit the signals the pages follow, so an undo looks
// to every view like any other change. Consecutive edits of the same spin box merge into one step
// (typing "512" is undone at once) until the document seals the step: the box lost focus, the user
// pressed Enter, another step was pushed, undone or redone, or the project was saved.
#include <QUndoCommand>

#include "ui/core/project_document.h"

namespace skynnet::ui {

class DocumentCommand : public QUndoCommand {
public:
    void seal() { sealed_ = true; }
    bool sealed() const { return sealed_; }

protected:
    DocumentCommand(ProjectDocument* document, const QString& text) : QUndoCommand(text), document_(document) {}
    ProjectDocument* document_;

private:
    bool sealed_ = false;
};

// Add, remove, move or edit a layer, or apply a preset: the whole network before and after (a
// network is a few layers, and one kind of command keeps every structural edit consistent).
class NetworkCommand : public DocumentCommand {
public:
    NetworkCommand(ProjectDocument* document, NetworkSpec before, NetworkSpec after, const QString& text);
    void undo() override;
    void redo() override;

private:
    NetworkSpec before_, after_;
};

class SplitOptionsCommand : public DocumentCommand {
public:
    SplitOptionsCommand(ProjectDocument* document, SplitOptions before, SplitOptions after);
    int id() const override { return id_; }
    bool mergeWith(const QUndoCommand* other) override;
    void undo() override;
    void redo() override;

private:
    SplitOptions before_, after_;
    int id_;
};

class TrainSettingsCommand : public DocumentCommand {
public:
    TrainSettingsCommand(ProjectDocument* document, TrainSettings before, TrainSettings after);
    int id() const override { return id_; }
    bool mergeWith(const QUndoCommand* other) override;
    void undo() override;
    void redo() override;

private:
    TrainSettings before_, after_;
    int id_;
};

// What an edit changed, for the command's text ("Set epochs to 512") and its merge id (-1 for
// fields that do not merge: combo boxes, check boxes, several fields at once).
struct EditDescription {
    QString text;
    int mergeId = -1;
    bool unchanged = false;  // before and after are equal
};
QString describeNetworkEdit(const NetworkSpec& before, const NetworkSpec& after);  // "Add layer 3", ...
EditDescription describeSplitEdit(const SplitOptions& before, const SplitOptions& after);
EditDescription describeTrainEdit(const TrainSettings& before, const TrainSettings& after);

}  // namespace skynnet::ui
