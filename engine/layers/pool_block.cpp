#include "layers/pool_block.h"

#include "layers/simd.h"

namespace skynnet {
namespace {

using simd::Vec;
constexpr int L = simd::kLanes;

}  // namespace

void maxPoolBlock(const Scalar* in, Shape shape, bool rectified, Scalar* out, Scalar* codes) {
    const int H = shape.height, W = shape.width, OH = H / 2, OW = W / 2;
    const Index row = Index(W) * L;
    const Vec position[4] = {simd::zero(), simd::broadcast(1), simd::broadcast(2), simd::broadcast(3)};
    const Vec none = simd::broadcast(-1);
    for (int c = 0; c < shape.channels; ++c)
        for (int oh = 0; oh < OH; ++oh) {
            const Scalar* top = in + (Index(c) * H + 2 * oh) * row;
            Scalar* o = out + (Index(c) * OH + oh) * OW * L;
            Scalar* code = codes + (Index(c) * OH + oh) * OW * L;
            for (int ow = 0; ow < OW; ++ow) {
                const Scalar* p = top + Index(2 * ow) * L;
                const Vec v[4] = {simd::load(p), simd::load(p + L), simd::load(p + row), simd::load(p + row + L)};
                Vec best = v[0], at = position[0];
                for (int k = 1; k < 4; ++k) {
                    at = simd::selectGreater(v[k], best, position[k], at);
                    best = simd::selectGreater(v[k], best, v[k], best);
                }
                if (rectified) at = simd::selectGreater(best, simd::zero(), at, none);
                simd::store(o + Index(ow) * L, best);
                simd::store(code + Index(ow) * L, at);
            }
        }
}

void unpoolBlock(const Scalar* g, const Scalar* codes, Shape shape, BlockPlacement at, Scalar* block,
                 Scalar* channelSums) {
    zeroBlockPadding(shape, at, block);
    const int H = shape.height, W = shape.width, OH = H / 2, OW = W / 2;
    const Index row = Index(at.block.width) * L;
    const Vec position[4] = {simd::zero(), simd::broadcast(1), simd::broadcast(2), simd::broadcast(3)};
    const Vec none = simd::broadcast(-1);
    for (int c = 0; c < shape.channels; ++c) {
        Scalar* plane = block + ((Index(c) * at.block.height + at.top) * at.block.width + at.left) * L;
        Vec sum = simd::zero();
        for (int oh = 0; oh < OH; ++oh) {
            const Scalar* gRow = g + (Index(c) * OH + oh) * OW * L;
            const Scalar* codeRow = codes + (Index(c) * OH + oh) * OW * L;
            Scalar* top = plane + Index(2 * oh) * row;
            for (int ow = 0; ow < OW; ++ow) {
                const Vec gv = simd::load(gRow + Index(ow) * L), code = simd::load(codeRow + Index(ow) * L);
                Scalar* p = top + Index(2 * ow) * L;
                simd::store(p, simd::selectEqual(code, position[0], gv));
                simd::store(p + L, simd::selectEqual(code, position[1], gv));
                simd::store(p + row, simd::selectEqual(code, position[2], gv));
                simd::store(p + row + L, simd::selectEqual(code, position[3], gv));
                sum = simd::add(sum, simd::selectGreater(code, none, gv, simd::zero()));
            }
            // An odd last column no window covers.
            if (W % 2) {
                simd::store(top + Index(W - 1) * L, simd::zero());
                simd::store(top + row + Index(W - 1) * L, simd::zero());
            }
        }
        if (H % 2)
            for (int w = 0; w < W; ++w) simd::store(plane + Index(H - 1) * row + Index(w) * L, simd::zero());
        if (channelSums) channelSums[c] += simd::sum(sum);
    }
}

}  // namespace skynnet
