#!/usr/bin/python3
"""qconform audit on bad input and on what it cannot judge: each a named error (exit 2) or an
item listed as not judged with its reason, never a crash or a silent skip.

usage: audit_errors_test.py QCONFORM MODELS_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

import numpy

failures = []


def audit(qconform, work, name, *args):
    report = os.path.join(work, name)
    run = subprocess.run([qconform, 'audit', *args, '--report', report], capture_output=True,
                         text=True)
    return run, report


def check(what, condition, run=None):
    if condition:
        print('ok   ' + what)
        return
    failures.append(what)
    print('FAIL ' + what)
    if run is not None:
        print(run.stdout[-2000:] + run.stderr[-2000:])


def items(report):
    return {i['name']: i for i in json.load(open(os.path.join(report, 'audit.json')))['items']}


def main():
    qconform, models, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    model = os.path.join(models, 'subgraph.onnx')

    missing = os.path.join(work, 'no-such-model.onnx')
    run, _ = audit(qconform, work, 'missing', missing, '--backend', 'onnxruntime')
    check('a missing model: exit 2, the file named',
          run.returncode == 2 and missing in run.stderr, run)
    not_model = os.path.join(models, 'cnn_qdq.data')
    run, _ = audit(qconform, work, 'not-model', not_model, '--backend', 'onnxruntime')
    check('a file that is not a model: exit 2, named',
          run.returncode == 2 and 'not an ONNX ModelProto' in run.stderr, run)

    inputs = os.path.join(work, 'inputs')
    os.makedirs(inputs, exist_ok=True)
    for f in os.listdir(inputs):
        os.remove(os.path.join(inputs, f))
    run, _ = audit(qconform, work, 'no-input', model, '--backend', 'onnxruntime', '--inputs', inputs)
    check("an input without a file: exit 2, input 'x' named",
          run.returncode == 2 and "input 'x'" in run.stderr and 'x.npy' in run.stderr, run)
    numpy.save(os.path.join(inputs, 'x.npy'), numpy.zeros((2, 5), dtype=numpy.float32))
    run, _ = audit(qconform, work, 'bad-shape', model, '--backend', 'onnxruntime', '--inputs', inputs)
    check('an input of the wrong shape: exit 2, file, input and declaration named',
          run.returncode == 2 and 'x.npy' in run.stderr and '(2,5)' in run.stderr and
          '(N,4)' in run.stderr, run)
    numpy.save(os.path.join(inputs, 'x.npy'),
               numpy.array([[0.0625, -0.1875, 3.0, 100.0]] * 3, dtype=numpy.float32))
    run, report = audit(qconform, work, 'subgraph', model, '--backend', 'onnxruntime', '--inputs',
                        inputs)
    check('own inputs, batch 3 from the file: exit 0', run.returncode == 0, run)
    if run.returncode == 0:
        got = items(report)
        check('the Q inside the branch, on outer values, is judged',
              got['branch_q']['verdict'] == 'conformant' and got['branch_q']['elements'] == 12, run)
        check('the DQ on a branch-local value is not judged, with the reason',
              got['branch_dq']['verdict'] == 'not-judged' and
              'computed inside' in got['branch_dq']['cause'], run)

    run, _ = audit(qconform, work, 'reference', model, '--backend', 'onnxruntime', '--reference',
                   'no-such-runtime')
    check('an unknown reference: exit 2, named',
          run.returncode == 2 and 'no-such-runtime' in run.stderr, run)

    run, report = audit(qconform, work, 'unrunnable', os.path.join(models, 'unrunnable.onnx'),
                        '--backend', 'onnxruntime', '--random', '7', '--dim', 'N=3')
    check('a reference run that fails: the rest still judged, exit 0', run.returncode == 0, run)
    if run.returncode == 0:
        got = items(report)
        check('the Q on the model input is judged',
              got['q']['verdict'] == 'conformant' and got['q']['elements'] == 12, run)
        check("the DQ after the reference's failure is not judged, with the runtime's words",
              got['dq']['verdict'] == 'not-judged' and 'NoSuchOperator' in got['dq']['cause'], run)
    # A model named without a directory, its external data beside it, from its own directory.
    run = subprocess.run([qconform, 'audit', 'cnn_qdq.onnx', '--backend', 'onnxruntime',
                          '--report', os.path.join(os.path.abspath(work), 'bare'), '--shard',
                          '1/8'], capture_output=True, text=True, cwd=models)
    check('a model named without a directory: every item judged',
          run.returncode == 0 and ', 0 not judged' in run.stdout, run)
    # Shards of one audit, merged: every item once, the reproducers linked where written.
    whole = os.path.join(models, 'transformer_qdq.onnx')
    shards = []
    for k in (1, 2):
        run, report = audit(qconform, work, 'shard%d' % k, whole, '--backend', 'onnxruntime:all',
                            '--shard', '%d/2' % k)
        shards.append(report)
    run, merged = audit(qconform, work, 'merged', '--merge', *shards)
    ok = run.returncode == 1 and len(items(merged)) == 30
    if ok:
        rows = json.load(open(os.path.join(merged, 'audit.json')))['items']
        ok = all(os.path.isdir(os.path.join(merged, r['repro'])) for r in rows if r['repro'])
        ok = ok and any(r['repro'] for r in rows) and rows[0]['failed']
    check('two shards merged: 30 items, the wrong first, reproducers reachable', ok, run)
    run, _ = audit(qconform, work, 'overlap', '--merge', shards[0], shards[0])
    check('overlapping shards: exit 2, named', run.returncode == 2 and 'overlap' in run.stderr, run)
    run, _ = audit(qconform, work, 'dim', model, '--backend', 'onnxruntime', '--dim', 'N')
    check('--dim without a value: exit 2', run.returncode == 2 and '--dim' in run.stderr, run)
    print('%d failed' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
