#pragma once
// Small-sample statistics for comparing runs over seeds (the study command): mean, sample standard
// deviation, paired differences and Student's t interval with n-1 degrees of freedom. A handful of
// seeds is the usual case, so the t quantile is exact (the incomplete beta function), not the
// normal approximation that would make a 3-seed interval look half as wide as it is.
#include <optional>
#include <vector>

namespace skynnet {

// Throws Error for an empty list.
double meanOf(const std::vector<double>& values);
// With n-1 in the denominator; empty (unknown, not 0) for fewer than 2 values.
std::optional<double> sampleStdDev(const std::vector<double>& values);
// a[i] - b[i]; throws Error when the lists differ in length.
std::vector<double> pairedDifferences(const std::vector<double>& a, const std::vector<double>& b);

// P(T <= t) for Student's t with `df` >= 1 degrees of freedom.
double studentTCdf(double t, int df);
// The t with P(T <= t) = p, 0 < p < 1: studentTQuantile(0.975, 2) = 4.303. Throws Error for a p
// outside (0, 1) or df < 1.
double studentTQuantile(double p, int df);

// mean +- t(1 - (1 - confidence) / 2, n - 1) * sd / sqrt(n).
struct MeanInterval {
    int n = 0;
    double mean = 0;
    double stdDev = 0;
    double halfWidth = 0;
    double low() const { return mean - halfWidth; }
    double high() const { return mean + halfWidth; }
};
// Empty for fewer than 2 values (no spread to estimate). confidence in (0, 1), e.g. 0.95.
std::optional<MeanInterval> tInterval(const std::vector<double>& values, double confidence = 0.95);

}  // namespace skynnet
