#pragma once
// Item-data roles the models add to Qt's: included by every model header so views can use them.
#include <QtCore/qnamespace.h>

namespace skynnet::ui {

// Raw values for sorting proxies (QSortFilterProxyModel::setSortRole) and exports, next to the
// formatted DisplayRole text: numbers as double/qlonglong, text as QString.
inline constexpr int SortRole = Qt::UserRole + 1;

}  // namespace skynnet::ui
