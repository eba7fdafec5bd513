"""Checks ONNX files as tst_export requires: onnx.checker.check_model(model, full_check=True).

Usage: python3 check_onnx.py FILE...  Prints "ok FILE" per file; on the first failure prints the
file and the checker's message to stderr and exits 1. Exits 3 if the onnx module is missing.
"""
import sys

try:
    import onnx
except ImportError:
    print("the Python onnx module is missing (Debian: python3-onnx)", file=sys.stderr)
    sys.exit(3)

for path in sys.argv[1:]:
    try:
        onnx.checker.check_model(onnx.load(path), full_check=True)
    except Exception as e:  # the checker raises several types; all mean the same here
        print(f"{path}: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"ok {path}")
