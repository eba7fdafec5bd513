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
    // A run whose CPU lines all have fewer points than this shows figures, not lines, on the CPU
    // and memory charts: a run of a fraction of a second has a sample at its start, a few more
    // merged into one (a rate over milliseconds is noise) and a straight line between them.
    static constexpr int shortRunPoints = 5;

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
    // Once a run ended: a run too short for lines gets its CPU and memory figures as text instead.
    void showShortRunFigures();

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
