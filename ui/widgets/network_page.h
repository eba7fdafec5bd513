#pragma once
// Page 2, Network: the hidden layers of the original model in a table (type, settings, output
// shape, parameters, FLOPs and training memory), the selected layer's settings in a form below it,
// a drawn diagram of the network beside it, totals, presets (MLPs, CNNs, a GRU over image rows, an
// autoencoder, a text classifier), and what is wrong with the design before anything trains.
#include <QWidget>

#include "project/data_reference.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QTableView;

namespace skynnet::ui {

class LayerEditor;
class LayerTableModel;
class NetworkDiagram;
class ProjectDocument;

class NetworkPage : public QWidget {
    Q_OBJECT
public:
    explicit NetworkPage(ProjectDocument* document, QWidget* parent = nullptr);

    LayerTableModel* layerModel() const { return model_; }
    QTableView* table() const { return table_; }
    // Replaces the hidden layers by a preset: 0 small (64-32), 1 medium (256-128), 2 large
    // (512-256-128) MLP; 3 the small CNN, 4 LeNet-5, 5 VGG-style blocks; 6 the reference's GRU
    // (gru 64, bn), which also asks for one-channel images to be read as rows; 7 the autoencoder's
    // dense 32; 8 a text classifier (embedding 64, the mean of its steps, dense 64).
    void applyPreset(int preset);
    // The visible problems: errors first, then warnings, one per line; empty when the design is fine.
    QString problemsText() const;
    bool hasErrors() const { return hasErrors_; }

    LayerEditor* layerEditor() const { return editor_; }
    NetworkDiagram* diagram() const { return diagram_; }
    QComboBox* addKindBox() const { return addKind_; }

    void addLayer();     // a layer of the add-kind box's kind after the selected one (or at the end)
    void removeLayer();  // the selected one
    void moveLayer(int delta);

signals:
    // A preset needs the data read otherwise (the GRU's images as rows, the autoencoder's task of
    // reconstruction): the same files with these settings, for the Data page to reload as one
    // undoable data edit.
    void dataSettingsRequested(const ProjectDataSource& settings);

private:
    void buildTableAndEditor();  // the layers' table and the selected layer's form
    QScrollArea* buildDiagram();
    QHBoxLayout* buildToolbar();  // add, remove, move, presets
    void buildBanners();          // totals, problems, a refused edit
    void refresh();
    int selectedLayer() const;
    void selectLayer(int row);

    ProjectDocument* document_;
    LayerTableModel* model_;
    QTableView* table_;
    QComboBox* presets_;
    QComboBox* addKind_;
    LayerEditor* editor_;
    NetworkDiagram* diagram_;
    QPushButton* add_;
    QPushButton* remove_;
    QPushButton* up_;
    QPushButton* down_;
    QLabel* totals_;
    QLabel* problems_;
    QLabel* rejected_;
    bool hasErrors_ = false;
};

}  // namespace skynnet::ui
