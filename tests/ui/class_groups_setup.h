#pragma once
// The project most session tests train: the data at `path`, optionally other hidden layers, class
// groups into 3 submodels, `epochs` epochs on a budget of 2 threads, with the baseline.
#include <QString>

#include "spec/network_spec.h"
#include "ui/core/project_document.h"

inline void configureClassGroups(skynnet::ui::ProjectDocument& doc, const QString& path, int epochs,
                                 const char* layers = nullptr) {
    skynnet::ProjectDataSource s;
    s.train.path = path.toStdString();
    doc.load(s);
    if (layers) {
        skynnet::NetworkSpec n = doc.network();
        n.layers = skynnet::parseLayers(layers);
        doc.setNetwork(n);
    }
    skynnet::SplitOptions o = doc.splitOptions();
    o.strategy = skynnet::Strategy::ClassGroups;
    o.requested = 3;
    doc.setSplitOptions(o);
    skynnet::ProjectTraining t = doc.trainSettings();
    t.config.epochs = epochs;
    t.threadBudget = 2;
    t.trainBaseline = true;
    doc.setTrainSettings(t);
}
