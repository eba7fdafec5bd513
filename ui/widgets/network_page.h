#pragma once
// Page 2, Network: the hidden layers of the original model in a table (type, settings, output
// shape, parameters, FLOPs and training memory), the selected layer's settings in a form below it,
// a drawn diagram of the network beside it, totals, presets (MLPs and CNNs), and what is wrong
// with the design before anything trains.
#include <QWidget>

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
    // (512-256-128) MLP; 3 the small CNN, 4 LeNet-5, 5 VGG-style blocks.
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
