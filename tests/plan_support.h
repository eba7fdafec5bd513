#pragma once
// What tests of the split planner feed it: the data's outline without the data.
#include <set>

#include "split/split_plan.h"

// Classification data info with `perClass` samples of every class except those in `absent`.
inline skynnet::DataInfo classInfo(int classes, int perClass, const std::set<int>& absent = {}) {
    skynnet::DataInfo d;
    d.task = skynnet::Task::Classification;
    d.classCount = classes;
    for (int k = 0; k < perClass; ++k)
        for (int c = 0; c < classes; ++c)
            if (!absent.count(c)) d.labels.push_back(c);
    d.samples = long(d.labels.size());
    return d;
}

// Class groups with `n` submodels requested, every other option at its default.
inline skynnet::SplitOptions classGroups(int n) {
    skynnet::SplitOptions o;
    o.strategy = skynnet::Strategy::ClassGroups;
    o.requested = n;
    return o;
}
