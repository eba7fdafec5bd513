#pragma once
// The undoable edits of a project. Each command holds the value before and after and applies it
// through one of the document's plain setters (the document is a template parameter, so this
// header needs only the values, not project_document.h), which emit the signals the pages follow, so an undo looks
// to every view like any other change. Consecutive edits of the same spin box merge into one step
// (typing "512" is undone at once) until the document seals the step: the box lost focus, the user
// pressed Enter, another step was pushed, undone or redone, or the project was saved.
#include <QUndoCommand>
#include <functional>
#include <utility>

#include "project/data_reference.h"
#include "project/project_file.h"
#include "spec/network_spec.h"
#include "split/split_plan.h"

namespace skynnet::ui {

class DocumentCommand : public QUndoCommand {
public:
    void seal() { sealed_ = true; }
    bool sealed() const { return sealed_; }

protected:
    explicit DocumentCommand(const QString& text) : QUndoCommand(text) {}

private:
    bool sealed_ = false;
};

// What an edit changed, for the command's text ("Set epochs to 512") and its merge id (-1 for
// fields that do not merge: combo boxes, check boxes, several fields at once).
struct EditDescription {
    QString text;
    int mergeId = -1;
};

// One value of the document (the network, the split options, the training settings, the data
// options) changed: the whole value before and after, set through one of the document's setters.
// Values are a few fields or layers, so holding both whole keeps every kind of edit consistent.
template <typename Document, typename T>
class ValueCommand : public DocumentCommand {
public:
    using Setter = void (Document::*)(const T&);
    using Describe = std::function<EditDescription(const T& before, const T& after)>;

    ValueCommand(Document* document, Setter set, T before, T after, Describe describe)
        : DocumentCommand(QString()), document_(document), set_(set), describe_(std::move(describe)),
          before_(std::move(before)), after_(std::move(after)) {
        const EditDescription d = describe_(before_, after_);
        setText(d.text);
        id_ = d.mergeId;
    }

    int id() const override { return id_; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = dynamic_cast<const ValueCommand*>(other);  // equal ids: the same field
        if (sealed() || !next || next->set_ != set_) return false;
        after_ = next->after_;
        setText(describe_(before_, after_).text);
        setObsolete(before_ == after_);  // typed back to where it was: no step at all
        return true;
    }
    void undo() override { (document_->*set_)(before_); }
    void redo() override { (document_->*set_)(after_); }

private:
    Document* document_;
    Setter set_;
    Describe describe_;
    T before_, after_;
    int id_ = -1;
};

// "Add layer 3", "Set layer 2 filters to 16", ...; edits of one number of one layer merge.
EditDescription describeNetworkEdit(const NetworkSpec& before, const NetworkSpec& after);
EditDescription describeSplitEdit(const SplitOptions& before, const SplitOptions& after);
EditDescription describeTrainEdit(const ProjectTraining& before, const ProjectTraining& after);
// Scaling, the validation and test fractions, the split seed, the target column and the task.
EditDescription describeDataEdit(const ProjectDataSource& before, const ProjectDataSource& after);

}  // namespace skynnet::ui
