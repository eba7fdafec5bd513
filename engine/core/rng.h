#pragma once
// Seeded random numbers. Distributions are implemented here (not std::*_distribution, whose
// output differs between standard libraries) so a seed means the same numbers everywhere.
#include <cstdint>
#include <vector>

namespace skynnet {

// Everything a generator holds, so a checkpointed run continues the same stream.
struct RngState {
    std::uint64_t s[4] = {};
    std::uint64_t seed = 0;
    bool hasSpare = false;
    double spare = 0.0;
    bool operator==(const RngState&) const = default;
};

class Rng {
public:
    explicit Rng(std::uint64_t seed = 1);

    std::uint64_t next();               // 64 random bits (xoshiro256**)
    double uniform();                   // [0, 1)
    float uniform(float lo, float hi);  // [lo, hi)
    float normal(float mean, float stddev);
    std::uint64_t below(std::uint64_t n);   // [0, n), unbiased
    std::vector<int> permutation(int n);    // a seeded shuffle of 0..n-1
    Rng split(std::uint64_t stream) const;  // an independent generator derived from this one's seed
    RngState state() const;
    void setState(const RngState& state);

private:
    std::uint64_t s_[4];
    std::uint64_t seed_;
    bool hasSpare_ = false;
    double spare_ = 0.0;
};

}  // namespace skynnet
