"""Prints an ONNX file's graph as JSON, for tst_export to check the nodes an exporter wrote.

Usage: python3 describe_onnx.py FILE
Prints {"nodes": [{"op": "Conv", "name": ..., "inputs": [...], "attributes": {"pads": [1, 1, 2, 1]}}, ...],
        "initializers": {"name": [dims...]}}; INT(S) and FLOAT(S) attributes only.
Exits 3 if the onnx module is missing.
"""
import json
import sys

try:
    import onnx
except ImportError:
    print("the Python onnx module is missing (Debian: python3-onnx)", file=sys.stderr)
    sys.exit(3)

A = onnx.AttributeProto
model = onnx.load(sys.argv[1])
nodes = []
for n in model.graph.node:
    attributes = {}
    for a in n.attribute:
        if a.type == A.INT:
            attributes[a.name] = a.i
        elif a.type == A.INTS:
            attributes[a.name] = list(a.ints)
        elif a.type == A.FLOAT:
            attributes[a.name] = a.f
        elif a.type == A.FLOATS:
            attributes[a.name] = list(a.floats)
    nodes.append({"op": n.op_type, "name": n.name, "inputs": list(n.input), "attributes": attributes})
initializers = {t.name: list(t.dims) for t in model.graph.initializer}
print(json.dumps({"nodes": nodes, "initializers": initializers}))
