#include "core/rng.h"

#include <cmath>
#include <numeric>

namespace skynnet {
namespace {

std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Rng::Rng(std::uint64_t seed) : seed_(seed) {
    std::uint64_t x = seed;
    for (auto& s : s_) s = splitmix(x);
}

std::uint64_t Rng::next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double Rng::uniform() { return double(next() >> 11) * 0x1.0p-53; }

float Rng::uniform(float lo, float hi) { return lo + float(uniform()) * (hi - lo); }

float Rng::normal(float mean, float stddev) {
    // Marsaglia polar method; deterministic given the stream.
    if (hasSpare_) {
        hasSpare_ = false;
        return mean + stddev * float(spare_);
    }
    double u, v, s;
    do {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double m = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * m;
    hasSpare_ = true;
    return mean + stddev * float(u * m);
}

std::uint64_t Rng::below(std::uint64_t n) {
    if (n <= 1) return 0;
    const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % n);
    std::uint64_t r;
    do r = next();
    while (r >= limit);
    return r % n;
}

std::vector<int> Rng::permutation(int n) {
    std::vector<int> p(std::size_t(n > 0 ? n : 0));
    std::iota(p.begin(), p.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(p[std::size_t(i)], p[std::size_t(below(std::uint64_t(i) + 1))]);
    return p;
}

Rng Rng::split(std::uint64_t stream) const {
    std::uint64_t x = seed_ ^ (0xD1B54A32D192ED03ull * (stream + 1));
    return Rng(splitmix(x));
}

RngState Rng::state() const {
    RngState r;
    for (int i = 0; i < 4; ++i) r.s[i] = s_[i];
    r.seed = seed_;
    r.hasSpare = hasSpare_;
    r.spare = spare_;
    return r;
}

void Rng::setState(const RngState& state) {
    for (int i = 0; i < 4; ++i) s_[i] = state.s[i];
    seed_ = state.seed;
    hasSpare_ = state.hasSpare;
    spare_ = state.spare;
}

}  // namespace skynnet
