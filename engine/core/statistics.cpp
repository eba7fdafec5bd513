#include "core/statistics.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "core/error.h"

namespace skynnet {
namespace {

// The continued fraction of the regularised incomplete beta function I_x(a, b), evaluated by the
// modified Lentz method; it converges fast for x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x) {
    constexpr double tiny = 1e-300, epsilon = 1e-15;
    const double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (std::fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 1000; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1) < epsilon) break;
    }
    return h;
}

double regularizedBeta(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                                  b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

}  // namespace

double meanOf(const std::vector<double>& values) {
    if (values.empty()) throw Error("the mean of no values is undefined");
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

std::optional<double> sampleStdDev(const std::vector<double>& values) {
    if (values.size() < 2) return std::nullopt;
    const double m = meanOf(values);
    double squares = 0;
    for (double v : values) squares += (v - m) * (v - m);
    return std::sqrt(squares / double(values.size() - 1));
}

std::vector<double> pairedDifferences(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size())
        throw Error("paired differences need lists of one length, got " + std::to_string(a.size()) + " and " +
                    std::to_string(b.size()));
    std::vector<double> d(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
    return d;
}

double studentTCdf(double t, int df) {
    if (df < 1) throw Error("Student's t needs at least 1 degree of freedom, got " + std::to_string(df));
    if (std::isnan(t)) return t;
    const double v = double(df);
    // P(|T| > |t|) = I_{v / (v + t^2)}(v / 2, 1 / 2).
    const double tail = 0.5 * regularizedBeta(v / 2, 0.5, v / (v + t * t));
    return t >= 0 ? 1 - tail : tail;
}

double studentTQuantile(double p, int df) {
    if (!(p > 0 && p < 1))
        throw Error("a t quantile needs a probability strictly between 0 and 1, got " + std::to_string(p));
    if (df < 1) throw Error("Student's t needs at least 1 degree of freedom, got " + std::to_string(df));
    if (p < 0.5) return -studentTQuantile(1 - p, df);
    if (p == 0.5) return 0;
    // The CDF is increasing: bracket the quantile, then bisect to the last bit.
    double low = 0, high = 1;
    while (studentTCdf(high, df) < p) {
        low = high;
        high *= 2;
        if (high > 1e12) return high;  // p indistinguishable from 1 at this df
    }
    for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
        const double mid = 0.5 * (low + high);
        (studentTCdf(mid, df) < p ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

std::optional<MeanInterval> tInterval(const std::vector<double>& values, double confidence) {
    if (!(confidence > 0 && confidence < 1))
        throw Error("a confidence level must lie strictly between 0 and 1, got " + std::to_string(confidence));
    const std::optional<double> sd = sampleStdDev(values);
    if (!sd) return std::nullopt;
    MeanInterval r;
    r.n = int(values.size());
    r.mean = meanOf(values);
    r.stdDev = *sd;
    r.halfWidth = studentTQuantile(1 - (1 - confidence) / 2, r.n - 1) * *sd / std::sqrt(double(r.n));
    return r;
}

}  // namespace skynnet
