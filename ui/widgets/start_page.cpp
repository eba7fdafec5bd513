#include "ui/widgets/start_page.h"

#include <QCommandLinkButton>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/core/app_settings.h"
#include "ui/widgets/examples.h"

namespace skynnet::ui {
namespace {

QCommandLinkButton* linkButton(const QString& title, const QString& description, const QString& tooltip = QString()) {
    auto* b = new QCommandLinkButton(title, description);
    b->setToolTip(tooltip.isEmpty() ? description : tooltip);
    return b;
}

QPushButton* startButton(QStyle* style, QStyle::StandardPixmap icon, const QString& text, const QString& tooltip) {
    auto* b = new QPushButton(style->standardIcon(icon), text);
    b->setToolTip(tooltip);
    b->setMinimumHeight(36);
    b->setStyleSheet(QStringLiteral("QPushButton { text-align: left; padding-left: 10px; }"));
    return b;
}

void clearLayout(QLayout* layout) {
    while (QLayoutItem* item = layout->takeAt(0)) {
        if (QWidget* w = item->widget()) w->deleteLater();
        else if (QLayout* l = item->layout()) clearLayout(l);
        delete item;
    }
}

}  // namespace

StartPage::StartPage(AppSettings* settings, QWidget* parent) : QWidget(parent), settings_(settings) {
    setObjectName(QStringLiteral("startPage"));
    auto* title = new QLabel(tr("<h1>Skynnet</h1>"));
    auto* intro = new QLabel(
        tr("Train a neural network as several smaller submodels at the same time, one per core, and "
           "compare their combined answer with the original network: accuracy, time and memory side "
           "by side. Begin with your data, a saved project or one of the examples."));
    intro->setWordWrap(true);

    auto* begin = new QGroupBox(tr("Start"));
    auto* beginLayout = new QVBoxLayout(begin);
    const struct {
        QStyle::StandardPixmap icon;
        QString text, tooltip;
        void (StartPage::*signal)();
    } starts[] = {
        {QStyle::SP_DialogOpenButton, tr("Open Data…"), tr("A CSV/TSV table or an IDX image file (MNIST family)"),
         &StartPage::openDataRequested},
        {QStyle::SP_DirOpenIcon, tr("Open Folder…"),
         tr("A folder with one subfolder of images or .txt texts per class"), &StartPage::openFolderRequested},
        {QStyle::SP_FileDialogStart, tr("Open Project…"), tr("A Skynnet project (.skynnet): data, settings and runs"),
         &StartPage::openProjectRequested},
        {QStyle::SP_FileIcon, tr("Open Model…"), tr("A trained model file (.skym): measure it on data, or predict"),
         &StartPage::openModelRequested},
    };
    for (const auto& s : starts) {
        QPushButton* b = startButton(style(), s.icon, s.text, s.tooltip);
        connect(b, &QPushButton::clicked, this, s.signal);
        beginLayout->addWidget(b);
    }
    beginLayout->addStretch();

    auto* recent = new QGroupBox(tr("Recent"));
    recentLayout_ = new QVBoxLayout(recent);

    auto* examples = new QGroupBox(tr("Examples"));
    auto* exampleLayout = new QVBoxLayout(examples);
    const QString project = exampleProjectPath();
    if (!project.isEmpty()) {
        QCommandLinkButton* b = linkButton(tr("Wine, split into class groups (a trained project)"),
                                           tr("Every page as it was saved, charts and results included"), project);
        connect(b, &QAbstractButton::clicked, this, [this, project] { emit projectChosen(project); });
        exampleLayout->addWidget(b);
        examples_ << b;
    }
    for (const Example& e : availableExamples()) {
        QCommandLinkButton* b = linkButton(e.title, e.description);
        connect(b, &QAbstractButton::clicked, this, [this, id = e.id] { emit exampleChosen(id); });
        exampleLayout->addWidget(b);
        examples_ << b;
    }
    exampleLayout->addStretch();

    auto* left = new QVBoxLayout;
    left->addWidget(begin);
    left->addWidget(recent, 1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 2);
    columns->addWidget(examples, 3);

    auto* content = new QWidget;
    content->setMaximumWidth(1100);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(title);
    contentLayout->addWidget(intro);
    contentLayout->addLayout(columns, 1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* centred = new QWidget;
    auto* centredLayout = new QHBoxLayout(centred);
    centredLayout->addStretch();
    centredLayout->addWidget(content, 10);
    centredLayout->addStretch();
    scroll->setWidget(centred);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    refresh();
}

void StartPage::showEvent(QShowEvent* event) {
    refresh();  // a project saved or data opened since the page was last shown
    QWidget::showEvent(event);
}

void StartPage::refresh() {
    clearLayout(recentLayout_);
    recentProjects_.clear();
    recentData_.clear();
    if (!settings_) return;
    for (const QString& path : settings_->recentProjects()) {
        QCommandLinkButton* b = linkButton(QFileInfo(path).fileName(), QFileInfo(path).absolutePath(), path);
        connect(b, &QAbstractButton::clicked, this, [this, path] { emit projectChosen(path); });
        recentLayout_->addWidget(b);
        recentProjects_ << b;
    }
    for (const QString& path : settings_->recentFiles()) {
        QCommandLinkButton* b = linkButton(QFileInfo(path).fileName(), QFileInfo(path).absolutePath(), path);
        connect(b, &QAbstractButton::clicked, this, [this, path] { emit dataChosen(path); });
        recentLayout_->addWidget(b);
        recentData_ << b;
    }
    if (recentProjects_.isEmpty() && recentData_.isEmpty()) {
        auto* none = new QLabel(tr("Projects and data you open will be listed here."));
        none->setEnabled(false);
        none->setWordWrap(true);
        recentLayout_->addWidget(none);
    }
    recentLayout_->addStretch();
}

}  // namespace skynnet::ui
