#pragma once
// The four live charts of the Train page: training loss, validation metric, CPU use and memory,
// one line per submodel plus the baseline. Fed from TrainingSession::progress by appending only
// the epochs and resource samples that arrived since the last update. The two charts over time
// shade the run's pauses (growing while one goes on) and break their lines across them.
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <map>

class QCheckBox;
class QLabel;

namespace skynnet {
struct ModelHistory;
}

namespace skynnet::ui {

class LiveChart;
class TrainingSession;

class TrainingCharts : public QWidget {
    Q_OBJECT
public:
    explicit TrainingCharts(TrainingSession* session, QWidget* parent = nullptr);

    LiveChart* lossChart() const { return loss_; }
    LiveChart* metricChart() const { return metric_; }
    LiveChart* cpuChart() const { return cpu_; }
    LiveChart* memoryChart() const { return memory_; }
    QCheckBox* logScaleBox() const { return logScale_; }

private:
    void onStarted(int submodels, bool withBaseline);
    void onProgress(const QList<int>& changed, bool baselineChanged);
    void showPauses();
    void update(const ModelHistory& snapshot);
    void refreshLegend();  // the shared legend names the loss chart's series

    struct Seen {
        std::size_t epochs = 0, resources = 0;
        double cpuAt = 0, cpuSeconds = 0;  // the last sample the CPU line was drawn to
        QString host;                      // in the series' names (runs on other machines)
    };

    TrainingSession* session_;
    LiveChart* loss_;
    LiveChart* metric_;
    LiveChart* cpu_;
    LiveChart* memory_;
    QCheckBox* logScale_;
    QLabel* legend_ = nullptr;
    std::map<int, Seen> seen_;
    QTimer pauseGrowth_;  // while paused: the band of the pause going on widens with the clock
};

}  // namespace skynnet::ui
