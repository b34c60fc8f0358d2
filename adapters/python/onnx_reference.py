#!/usr/bin/python3
"""ONNX's reference evaluator (onnx.reference, ONNX 1.13 and later) as a qconform backend,
through qconform_exec:

    qconform run --backend exec:adapters/python/onnx_reference.py

Debian's python3-onnx 1.12 has no onnx.reference; ctest then reports this adapter's entry as
SKIPPED with that reason.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qconform_exec as q  # noqa: E402

try:
    import onnx
    import onnx.numpy_helper
    import onnx.reference
except ImportError as e:  # reported by the handshake's absence; ctest checks before
    sys.stderr.write("onnx_reference.py: %s (needs onnx >= 1.13)\n" % e)
    sys.exit(3)


def run(case):
    model = onnx.load(os.path.join(case.directory, "model.onnx"))
    try:
        session = onnx.reference.ReferenceEvaluator(model)
    except Exception as e:
        raise q.RejectedAtLoad(str(e))
    feeds = {}
    fed = [i.name for i in model.graph.input
           if i.name not in {t.name for t in model.graph.initializer}]
    for k, name in enumerate(fed):
        path = os.path.join(case.directory, "test_data_set_0", "input_%d.pb" % k)
        feeds[name] = onnx.numpy_helper.to_array(onnx.load_tensor(path))
    results = session.run(None, feeds)
    outputs = []
    for value, (name, _) in zip(results, case.outputs):
        proto = onnx.numpy_helper.from_array(value, name)
        outputs.append(q.Tensor.parse(proto.SerializeToString(), name))
    return outputs


if __name__ == "__main__":
    q.serve("onnx-reference", onnx.__version__.replace(" ", "_"),
            "onnx.reference.ReferenceEvaluator", run)
