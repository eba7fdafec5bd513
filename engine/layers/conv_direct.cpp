#include "layers/conv_direct.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "layers/simd.h"

namespace skynnet {
namespace {

using simd::Vec;
constexpr int L = simd::kLanes;
constexpr int FB = kConvFilterBlock;
// A register tile: kPass filters (of a group's FB) by kTile output columns (forward) or taps
// (weight gradient). Its kPass x kTile accumulators, kPass broadcast weights or gradients and one
// input vector fit the vector registers: 4 x 6 + 4 + 1 of AVX-512's 32, 2 x 6 + 2 + 1 of AVX2's
// 16 (SSE's multiply then add needs one more for the product: its 16 are full). Twelve or more
// accumulators cover the multiply-add's latency on two pipes (4 x 2, which AVX2 had, left a third
// of the FMA peak unused); a group's second pass rereads the input from L1.
constexpr int kPass = L == 16 ? 4 : 2;
constexpr int kTile = 6;
static_assert(FB % kPass == 0);

// f(std::integral_constant<int, n>) for a run-time n in [1, Max].
template <int Max, class F>
void withTile(int n, F&& f) {
    if constexpr (Max >= 1) {
        if (n == Max) return f(std::integral_constant<int, Max>{});
        withTile<Max - 1>(n, f);
    }
}

}  // namespace

int convBlockSamples() { return L; }

namespace {

// Calls run(offset in a sample's row, first vector in the block, length) for each run of values
// that lie side by side in both: a whole channel when the block has no padding, else each row.
template <class Run>
void forEachRun(Shape shape, BlockPlacement at, Run&& run) {
    const Shape b = at.block;
    const int H = shape.height, W = shape.width;
    const bool unpadded = b.height == H && b.width == W;
    for (int c = 0; c < shape.channels; ++c) {
        if (unpadded) {
            run(Index(c) * H * W, Index(c) * H * W, H * W, c);
            continue;
        }
        for (int h = 0; h < H; ++h)
            run((Index(c) * H + h) * W, (Index(c) * b.height + h + at.top) * b.width + at.left, W, c);
    }
}

// Zeros vectors [begin, end) of a block: runs of 1 to 30 vectors, written as vectors rather than
// through memset's call (the padding's short runs made memset 2% of a CNN's training step).
void zeroVectors(Scalar* block, Index begin, Index end) {
    for (Index v = begin; v < end; ++v) simd::store(block + v * L, simd::zero());
}

}  // namespace

void zeroBlockPadding(Shape shape, BlockPlacement at, Scalar* block) {
    const Shape b = at.block;
    for (int c = 0; c < b.channels; ++c) {
        const Index plane = Index(c) * b.height * b.width;  // in vectors
        if (c >= shape.channels) {
            zeroVectors(block, plane, plane + Index(b.height) * b.width);
            continue;
        }
        zeroVectors(block, plane, plane + Index(at.top) * b.width);
        for (int h = at.top; h < at.top + shape.height; ++h) {
            const Index row = plane + Index(h) * b.width;
            zeroVectors(block, row, row + at.left);
            zeroVectors(block, row + at.left + shape.width, row + b.width);
        }
        zeroVectors(block, plane + Index(at.top + shape.height) * b.width, plane + Index(b.height) * b.width);
    }
}

namespace {

#if defined(__AVX512F__)
// r[i] lane j <-> r[j] lane i.
inline void transpose16(__m512 r[16]) {
    __m512 t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
        t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xDD);
        t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
        t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xDD);
    }
    for (int i = 0; i < 8; ++i) {
        r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
    }
}
#endif

}  // namespace

void rowsToBlock(const Scalar* x, Index stride, Index n, Shape shape, BlockPlacement at, Scalar* block,
                 const Scalar* mask, Scalar* channelSums) {
    zeroBlockPadding(shape, at, block);
#if defined(__AVX512F__)
    // 16 samples' runs of up to 16 values at a time, turned into up to 16 vectors of 16 samples.
    __m512 sum = _mm512_setzero_ps();
    int sumChannel = 0;
    const auto flush = [&] {
        if (channelSums) channelSums[sumChannel] += _mm512_reduce_add_ps(sum);
        sum = _mm512_setzero_ps();
    };
    forEachRun(shape, at, [&](Index src, Index dst, int len, int c) {
        if (c != sumChannel) {
            flush();
            sumChannel = c;
        }
        for (int w0 = 0; w0 < len; w0 += 16) {
            const int m = std::min(16, len - w0);
            const __mmask16 lanes = __mmask16((1u << m) - 1);
            __m512 r[16];
            for (int s = 0; s < 16; ++s) {
                if (s >= n) {
                    r[s] = _mm512_setzero_ps();
                    continue;
                }
                const Index at = s * stride + src + w0;
                r[s] = _mm512_maskz_loadu_ps(lanes, x + at);
                if (mask) {
                    const __mmask16 keep = _mm512_cmp_ps_mask(_mm512_maskz_loadu_ps(lanes, mask + at),
                                                              _mm512_setzero_ps(), _CMP_GT_OQ);
                    r[s] = _mm512_maskz_mov_ps(keep, r[s]);
                }
            }
            transpose16(r);
            Scalar* out = block + (dst + w0) * L;
            for (int q = 0; q < m; ++q) {
                _mm512_storeu_ps(out + q * L, r[q]);
                sum = _mm512_add_ps(sum, r[q]);
            }
        }
    });
    flush();
#else
    std::vector<Scalar> sums(std::size_t(shape.channels), Scalar(0));
    forEachRun(shape, at, [&](Index src, Index dst, int len, int c) {
        for (int w = 0; w < len; ++w) {
            Scalar* out = block + (dst + w) * L;
            for (int s = 0; s < L; ++s) {
                Scalar v = 0;
                if (s < n) {
                    const Index i = s * stride + src + w;
                    v = mask && !(mask[i] > Scalar(0)) ? Scalar(0) : x[i];
                }
                out[s] = v;
                sums[std::size_t(c)] += v;
            }
        }
    });
    if (channelSums)
        for (int c = 0; c < shape.channels; ++c) channelSums[c] += sums[std::size_t(c)];
#endif
}

void blockToRows(const Scalar* block, BlockPlacement at, Shape shape, Index n, Scalar* y, Index stride) {
#if defined(__AVX512F__)
    forEachRun(shape, at, [&](Index dst, Index src, int len, int) {
        for (int w0 = 0; w0 < len; w0 += 16) {
            const int m = std::min(16, len - w0);
            const __mmask16 lanes = __mmask16((1u << m) - 1);
            __m512 r[16];
            for (int q = 0; q < 16; ++q)
                r[q] = q < m ? _mm512_loadu_ps(block + (src + w0 + q) * L) : _mm512_setzero_ps();
            transpose16(r);
            for (int s = 0; s < n; ++s) _mm512_mask_storeu_ps(y + s * stride + dst + w0, lanes, r[s]);
        }
    });
#else
    forEachRun(shape, at, [&](Index dst, Index src, int len, int) {
        for (int w = 0; w < len; ++w)
            for (Index s = 0; s < n; ++s) y[s * stride + dst + w] = block[(src + w) * L + s];
    });
#endif
}

void packFilters(const Matrix& weights, int channels, int kH, int kW, bool flipped, PackedFilters& out) {
    const int F = int(weights.rows()), taps = kH * kW;
    out.filters = flipped ? channels : F;
    out.channels = flipped ? roundUpToFilterBlock(F) : channels;
    out.kernelH = kH;
    out.kernelW = kW;
    const int groups = roundUpToFilterBlock(out.filters) / FB;
    out.values.assign(std::size_t(groups) * out.channels * taps * FB, Scalar(0));
    for (int of = 0; of < out.filters; ++of)
        for (int oc = 0; oc < out.channels; ++oc)
            for (int i = 0; i < kH; ++i)
                for (int j = 0; j < kW; ++j) {
                    Scalar v;
                    if (!flipped) v = weights(of, (oc * kH + i) * kW + j);
                    else v = oc < F ? weights(oc, (of * kH + kH - 1 - i) * kW + kW - 1 - j) : Scalar(0);
                    out.values[((std::size_t(of / FB) * out.channels + oc) * taps + i * kW + j) * FB + of % FB] = v;
                }
}

void correlateBlock(const Scalar* in, Shape inShape, const PackedFilters& pf, const Scalar* bias, bool rectify,
                    int zeroTop, int zeroBottom, Scalar* out, OutputExtent only) {
    const int C = pf.channels, kH = pf.kernelH, kW = pf.kernelW, taps = kH * kW;
    const int Hin = inShape.height, Win = inShape.width, OH = Hin - kH + 1, OW = Win - kW + 1;
    const int rows = only.rows > 0 ? std::min(only.rows, OH) : OH,
              columns = only.columns > 0 ? std::min(only.columns, OW) : OW;
    const int groups = roundUpToFilterBlock(pf.filters) / FB;
    const Index plane = Index(Hin) * Win * L, outPlane = Index(OH) * OW * L, row = Index(Win) * L;
    // Each output row in tiles of about equal width (11 = 6 + 5, 26 = 6 + 5 + 5 + 5 + 5).
    const int tiles = (columns + kTile - 1) / kTile;
    for (int oh = 0; oh < rows; ++oh) {
        const int iBegin = std::max(0, zeroTop - oh), iEnd = std::min(kH, Hin - zeroBottom - oh);
        for (int t = 0; t < tiles; ++t) {
            const int ow0 = columns * t / tiles, width = columns * (t + 1) / tiles - ow0;
            withTile<kTile>(width, [&](auto tileWidth) {
                constexpr int PB = decltype(tileWidth)::value;
                // Every filter group on this tile, its input (C x kH rows of PB + kW - 1 vectors) still
                // in the cache from the pass before.
                for (int pass = 0; pass < groups * (FB / kPass); ++pass) {
                    const int g = pass / (FB / kPass), f0 = pass % (FB / kPass) * kPass;
                    Scalar* const o0 = out + (g * FB + f0) * outPlane + (Index(oh) * OW + ow0) * L;
                    Vec acc[kPass][PB];
                    for (int f = 0; f < kPass; ++f) {
                        const int filter = g * FB + f0 + f;
                        const Vec b = bias && filter < pf.filters ? simd::broadcast(bias[filter]) : simd::zero();
                        for (int p = 0; p < PB; ++p) acc[f][p] = b;
                    }
                    const Scalar* wg = pf.values.data() + std::size_t(g) * C * taps * FB + f0;
                    for (int c = 0; c < C; ++c) {
                        const Scalar* pc = in + c * plane + Index(ow0) * L;
                        const Scalar* wc = wg + c * taps * FB;
                        for (int i = iBegin; i < iEnd; ++i) {
                            const Scalar* r = pc + (oh + i) * row;
                            const Scalar* wi = wc + i * kW * FB;
                            for (int j = 0; j < kW; ++j) {
                                Vec w[kPass];
                                for (int f = 0; f < kPass; ++f) w[f] = simd::broadcast(wi[j * FB + f]);
                                // Opaque to the compiler: it otherwise keeps the columns tap j + 1
                                // shares with tap j in registers, runs out of them and spills
                                // accumulators (a sixth of the kernel's time went to one reload).
                                const Scalar* rj = r + j * L;
                                simd::opaque(rj);
#pragma GCC unroll 8
                                for (int p = 0; p < PB; ++p) {
                                    // Held in a register: kPass multiply-adds read it (held
                                    // columns spill: the accumulators and 6 columns overfill the registers).
                                    Vec x = simd::load(rj + p * L);
                                    simd::inRegister(x);
                                    for (int f = 0; f < kPass; ++f) acc[f][p] = simd::fma(x, w[f], acc[f][p]);
                                }
                            }
                        }
                    }
                    for (int f = 0; f < kPass; ++f)
                        for (int p = 0; p < PB; ++p)
                            simd::store(o0 + f * outPlane + p * L,
                                        rectify ? simd::max(acc[f][p], simd::zero()) : acc[f][p]);
                }
            });
        }
    }
}

namespace {

// acc[c][p] += the sum over f < F of g[f * gStride + p * L] * w[f * wStride + c]. Its own
// function: inside the caller's lambda GCC kept the loop's counter and a stride on the stack.
template <int PB>
void scatterTile(const Scalar* g, Index gStride, const Scalar* w, Index wStride, int F, Vec (&acc)[kPass][PB]) {
    for (int f = 0; f < F; ++f, g += gStride, w += wStride) {
        Vec wc[kPass];
        for (int c = 0; c < kPass; ++c) wc[c] = simd::broadcast(w[c]);
#pragma GCC unroll 8
        for (int p = 0; p < PB; ++p) {
            Vec x = simd::load(g + p * L);
            simd::inRegister(x);
            for (int c = 0; c < kPass; ++c) acc[c][p] = simd::fma(x, wc[c], acc[c][p]);
        }
    }
}

}  // namespace

void scatterInputGradientBlock(const Scalar* g, BlockPlacement gAt, int rows, int columns, const PackedFilters& pf,
                               Shape outShape, Scalar* out) {
    const int F = pf.channels, kH = pf.kernelH, kW = pf.kernelW, taps = kH * kW;
    const int groups = roundUpToFilterBlock(pf.filters) / FB;
    const Index gPlane = Index(gAt.block.height) * gAt.block.width * L, gRow = Index(gAt.block.width) * L;
    const Scalar* gOrigin = g + (Index(gAt.top) * gAt.block.width + gAt.left) * L;
    const Index outPlane = Index(outShape.height) * outShape.width * L, outRow = Index(outShape.width) * L;
    zeroVectors(out, 0, Index(groups) * FB * outShape.height * outShape.width);
    // Each gradient row in tiles of about equal width (11 = 6 + 5), as the forward's output.
    const int tiles = (columns + kTile - 1) / kTile;
    for (int oh = 0; oh < rows; ++oh)
        for (int t = 0; t < tiles; ++t) {
            const int ow0 = columns * t / tiles, width = columns * (t + 1) / tiles - ow0;
            withTile<kTile>(width, [&](auto tileWidth) {
                constexpr int PB = decltype(tileWidth)::value;
                // The tile's gradient (F x PB vectors, 12 KB for conv64) stays in L1 over every pass and
                // tap; a pass's weights (F x taps x FB values) too, over its taps.
                const Scalar* gTile = gOrigin + Index(oh) * gRow + Index(ow0) * L;
                for (int pass = 0; pass < groups * (FB / kPass); ++pass) {
                    const int cg = pass / (FB / kPass), c0 = pass % (FB / kPass) * kPass;
                    const Scalar* wg = pf.values.data() + std::size_t(cg) * F * taps * FB + c0;
                    Scalar* const outPass = out + (cg * FB + c0) * outPlane;
                    for (int i = 0; i < kH; ++i)
                        for (int j = 0; j < kW; ++j) {
                            // The flipped filters hold tap (i, j) at (kH - 1 - i, kW - 1 - j).
                            const Scalar* wt = wg + ((kH - 1 - i) * kW + kW - 1 - j) * FB;
                            Scalar* const o = outPass + (oh + i) * outRow + Index(ow0 + j) * L;
                            Vec acc[kPass][PB];
                            for (int c = 0; c < kPass; ++c)
                                for (int p = 0; p < PB; ++p) acc[c][p] = simd::load(o + c * outPlane + p * L);
                            scatterTile<PB>(gTile, gPlane, wt, Index(taps) * FB, F, acc);
                            for (int c = 0; c < kPass; ++c)
                                for (int p = 0; p < PB; ++p) simd::store(o + c * outPlane + p * L, acc[c][p]);
                        }
                }
            });
        }
}

void weightGradientBlock(const Scalar* g, BlockPlacement gAt, int outH, int outW, const Scalar* in, Shape inShape,
                         int kH, int kW, int filters, Scalar* grad, bool accumulate) {
    const int C = inShape.channels, Hin = inShape.height, Win = inShape.width, K = C * kH * kW;
    const Index gPlane = gAt.block.height * Index(gAt.block.width) * L, gRow = Index(gAt.block.width) * L;
    const Index inRow = Index(Win) * L;
    const Scalar* gOrigin = g + (Index(gAt.top) * gAt.block.width + gAt.left) * L;
    const int groups = roundUpToFilterBlock(filters) / FB;
    // Filters outside, taps inside: one pass's gradient (kPass planes, 31 KB of conv64's 11 x 11
    // with AVX-512) stays in the cache over all the taps, and the input block (346 KB for 32 x 13 x
    // 13) streams from L2 once per pass. The other way round streamed the whole gradient block
    // once per tap group, and ran 10-15% slower.
    for (int pass = 0; pass < groups * (FB / kPass); ++pass) {
        const int first = pass * kPass;
        const Scalar* gg = gOrigin + first * gPlane;
        for (int k0 = 0; k0 < K; k0 += kTile) {
            withTile<kTile>(std::min(kTile, K - k0), [&](auto tileTaps) {
                constexpr int TB = decltype(tileTaps)::value;
                Index offset[TB];
                for (int t = 0; t < TB; ++t) {
                    const int k = k0 + t, c = k / (kH * kW), i = k / kW % kH, j = k % kW;
                    offset[t] = ((Index(c) * Hin + i) * Win + j) * L;
                }
                Vec acc[kPass][TB];
                for (int f = 0; f < kPass; ++f)
                    for (int t = 0; t < TB; ++t) acc[f][t] = simd::zero();
                for (int oh = 0; oh < outH; ++oh) {
                    const Scalar* gLine = gg + oh * gRow;
                    const Scalar* xLine = in + oh * inRow;
                    for (int ow = 0; ow < outW; ++ow) {
                        Vec gv[kPass];
                        for (int f = 0; f < kPass; ++f) gv[f] = simd::load(gLine + f * gPlane + Index(ow) * L);
#pragma GCC unroll 8
                        for (int t = 0; t < TB; ++t) {
                            Vec x = simd::load(xLine + Index(ow) * L + offset[t]);
                            simd::inRegister(x);
                            for (int f = 0; f < kPass; ++f) acc[f][t] = simd::fma(gv[f], x, acc[f][t]);
                        }
                    }
                }
                for (int f = 0; f < kPass && first + f < filters; ++f)
                    for (int t = 0; t < TB; ++t) {
                        Scalar& dst = grad[Index(first + f) * K + k0 + t];
                        dst = (accumulate ? dst : Scalar(0)) + simd::sum(acc[f][t]);
                    }
            });
        }
    }
}

}  // namespace skynnet
