#pragma once
// The 2x2 max pool of stride 2 on blocks of samples interleaved lane by lane (conv_direct.h's
// layout), for a convolution that pools its own output (Conv2D::poolOutput): one vector compare
// takes a window of 16 samples, the block's full output never goes back to rows (4.8 times the
// values of the pooled one for the CNN's conv64), and its gradient goes straight into the
// convolution's gradient block, where MaxPool2D's scatter and a transpose of the whole gradient
// back to blocks did the same work before.
#include "layers/conv_direct.h"

namespace skynnet {

// out (C, H / 2, W / 2) = each window's largest value of `in` (shape C x H x W, unpadded), the
// first of equal values in MaxPool2D's order (top left, top right, bottom left, bottom right).
// codes, of out's layout: that position (0 to 3) or, with `rectified`, -1 where the largest is not
// above zero (the input is a ReLU's output, whose gradient is zero there).
void maxPoolBlock(const Scalar* in, Shape shape, bool rectified, Scalar* out, Scalar* codes);

// Its gradient: the block of `shape` (the pooled input's) placed at `at` in `block` gets each
// value of g (C, H / 2, W / 2) at the position its code names, zeros elsewhere (positions no
// window covers, the padding, the channels past shape's). channelSums[c] gains the sum of channel
// c's values written.
void unpoolBlock(const Scalar* g, const Scalar* codes, Shape shape, BlockPlacement at, Scalar* block,
                 Scalar* channelSums);

}  // namespace skynnet
