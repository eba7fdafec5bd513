#pragma once
// Max and average pooling over square windows of each channel, without padding (valid):
// out = floor((in - size) / stride) + 1 along each axis.
#include <vector>

#include "layers/layer.h"

namespace skynnet {

class Pool2D : public Layer {
public:
    // stride 0: the size (windows side by side).
    Pool2D(int size, int stride);

    void build(Shape input, Rng& rng) override;
    int size() const { return size_; }
    int stride() const { return stride_; }
    // One comparison or addition per window value.
    std::int64_t flopsPerSample() const override { return output_.size() * size_ * size_; }
    std::int64_t bufferBytes() const override { return matrixBytes(y_) + matrixBytes(gradInput_); }

protected:
    // Calls visit(first) for each window of one sample in output order (channel, row, column),
    // with the offset of the window's top-left value; value i, j of the window is at
    // first + i * width + j.
    template <class Visit>
    void forEachWindow(Visit&& visit) const {
        const int H = input_.height, W = input_.width;
        for (int c = 0; c < input_.channels; ++c)
            for (int oh = 0; oh < output_.height; ++oh)
                for (int ow = 0; ow < output_.width; ++ow) visit((c * H + oh * stride_) * W + ow * stride_);
    }

    int size_, stride_;
    Matrix y_, gradInput_;
};

// Each window's largest value; the gradient goes to the first position holding it.
class MaxPool2D final : public Pool2D {
public:
    using Pool2D::Pool2D;
    std::string kind() const override { return "maxpool"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<MaxPool2D>(*this); }

    // The convolution below pools its own output (Conv2D::poolOutput): values and gradients pass
    // through unchanged.
    void takePooledInput() { pooledInput_ = true; }

private:
    std::vector<std::int32_t> argmax_;  // per output value, the index of its maximum in the sample
    bool pooledInput_ = false;
};

// The 2x2 max pool of stride 2 of one sample of shape `in` into `out` (in's halved, rounded
// down), with per output value the index of its maximum in the sample (the first of equal values,
// in the order top left, top right, bottom left, bottom right), as MaxPool2D computes them.
void maxPool2x2(const Scalar* sample, Shape in, Shape out, Scalar* y, std::int32_t* arg);

class AvgPool2D final : public Pool2D {
public:
    using Pool2D::Pool2D;
    std::string kind() const override { return "avgpool"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<AvgPool2D>(*this); }
};

}  // namespace skynnet
