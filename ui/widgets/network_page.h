#pragma once
// Page 2, Network: the hidden layers of the original model in an editable table (type, units,
// activation, dropout rate, scalable flag) with each layer's output shape, parameters and FLOPs,
// totals, presets, and what is wrong with the design before anything trains.
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace skynnet::ui {

class LayerTableModel;
class ProjectDocument;

class NetworkPage : public QWidget {
    Q_OBJECT
public:
    explicit NetworkPage(ProjectDocument* document, QWidget* parent = nullptr);

    LayerTableModel* layerModel() const { return model_; }
    QTableView* table() const { return table_; }
    // Replaces the hidden layers by a preset: 0 small (64-32), 1 medium (256-128), 2 large (512-256-128).
    void applyPreset(int preset);
    // The visible problems: errors first, then warnings, one per line; empty when the design is fine.
    QString problemsText() const;
    bool hasErrors() const { return hasErrors_; }

    void addLayer();      // a dense layer after the selected one (or at the end)
    void removeLayer();   // the selected one
    void moveLayer(int delta);

private:
    void refresh();
    int selectedLayer() const;
    void selectLayer(int row);

    ProjectDocument* document_;
    LayerTableModel* model_;
    QTableView* table_;
    QComboBox* presets_;
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
