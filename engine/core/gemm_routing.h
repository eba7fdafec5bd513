#pragma once
// Which backend gemm() takes for each product shape: a table measured on this machine
// (`skynnet-cli tune`, kept in a cache per CPU model, library versions and build), and the
// hand-written rules of gemm.cpp for the shapes the table does not hold. The table is installed
// once per process, before training; so one machine with one cache routes every shape the same
// way, and one seed gives the same bits. Every shape routed is remembered with its backend (the
// routes used), which runs record so that a resume under another routing can be refused.
#include <compare>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/gemm.h"

namespace skynnet {

// One product as gemm() sees it; `columns` marks gemmOnColumns' products (a convolution's im2col
// chunks), which take their backend by name rather than by shape.
struct GemmShape {
    Op opA = Op::None, opB = Op::None;
    Index m = 0, n = 0, k = 0;
    bool columns = false;
    auto operator<=>(const GemmShape&) const = default;
};
// "NT 64x512x784" (opA opB m x n x k), "cols NN 64x1452x288"; gemmShapeFromText reads it back and
// throws Error naming the text otherwise.
std::string gemmShapeText(const GemmShape& shape);
GemmShape gemmShapeFromText(const std::string& text);
double gemmShapeFlop(const GemmShape& shape);  // 2 m n k

GemmBackend gemmBackendFromName(const std::string& name);  // throws Error naming an unknown one

// A measured table: its routes, and the machine it was measured on (gemmMachineKey()).
struct GemmRouting {
    std::string machine;
    std::map<GemmShape, GemmBackend> routes;
};

// The CPU model, the libraries' versions and kernels, and this build's compiler and vector width,
// as one line: a cache made under another key is not this machine's.
std::string gemmMachineKey();

// Installs the table gemm() consults from now on (an empty one: the rules alone), and starts the
// record of routes used afresh. Call it before any training starts, never during one.
void installGemmRouting(GemmRouting routing);
// The backend gemm() takes for a shape under the installed table (the rules where it has none).
GemmBackend gemmRoute(const GemmShape& shape);
// The shape's backend by the hand-written rules alone.
GemmBackend gemmRuleRoute(const GemmShape& shape);
// How many routes the installed table holds (0: the rules alone).
std::size_t installedGemmRoutes();

// Every shape this process has routed so far, with the backend it took, in shape order.
struct GemmRouteUsed {
    GemmShape shape;
    GemmBackend backend;
    bool measured;  // from the installed table, not the rules
};
std::vector<GemmRouteUsed> gemmRoutesUsed();

// While one exists, gemm() also records each distinct shape it runs (the tuner's way of learning
// the shapes a network runs). Not reentrant: one at a time.
class GemmShapeRecorder {
public:
    GemmShapeRecorder();
    ~GemmShapeRecorder();
    GemmShapeRecorder(const GemmShapeRecorder&) = delete;
    GemmShapeRecorder& operator=(const GemmShapeRecorder&) = delete;
    std::vector<GemmShape> shapes() const;
};

}  // namespace skynnet
