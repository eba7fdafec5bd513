#pragma once
// Pictures for a reviewer: with SKYNNET_TEST_SHOTS=DIR, a test saves the widgets it checks there
// as PNGs (DIR/name.png); without it, nothing is written.
#include <QDir>
#include <QString>
#include <QTest>
#include <QWidget>

inline void shoot(QWidget* w, const QString& name) {
    const QString out = qEnvironmentVariable("SKYNNET_TEST_SHOTS");
    if (out.isEmpty()) return;
    QDir().mkpath(out);
    QTest::qWait(50);  // let charts and layouts settle
    w->grab().save(out + QLatin1Char('/') + name + QStringLiteral(".png"));
}
