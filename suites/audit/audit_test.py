#!/usr/bin/python3
"""Audits one test model against one backend and checks audit.json against
expected_findings.txt: the named findings present with their causes, every other item
conformant, nothing left not judged.

usage: audit_test.py QCONFORM MODELS_DIR MODEL BACKEND WORK_DIR
"""
import json
import os
import subprocess
import sys


def expectations(model, backend):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected_findings.txt')
    must, may = {}, set()
    for line in open(path):
        words = line.split(None, 4)
        if not words or words[0].startswith('#') or words[:2] != [model, backend]:
            continue
        if words[3] == 'may-fail':
            may.add(words[2])
        else:
            must[words[2]] = (words[3], words[4].strip())
    return must, may


def main():
    qconform, models, model, backend, work = sys.argv[1:6]
    report = os.path.join(work, model + '-' + backend.replace(':', '-'))
    run = subprocess.run([qconform, 'audit', os.path.join(models, model + '.onnx'),
                          '--backend', backend, '--report', report, '-j', '2'],
                         capture_output=True, text=True)
    print(run.stdout[-4000:])
    if run.returncode not in (0, 1):
        print(run.stderr[-4000:])
        return 'qconform audit exited with %d' % run.returncode
    here = os.path.dirname(os.path.abspath(__file__))
    schema = subprocess.run([sys.executable, os.path.join(here, '..', 'report', 'json_schema_check.py'),
                             os.path.join(here, '..', '..', 'report', 'audit.schema.json'),
                             os.path.join(report, 'audit.json')], capture_output=True, text=True)
    if schema.returncode != 0:
        print(schema.stdout + schema.stderr)
        return 'audit.json does not follow report/audit.schema.json'
    items = json.load(open(os.path.join(report, 'audit.json')))['items']
    must, may = expectations(model, backend)
    problems = []
    seen = {i['name']: i for i in items}
    for name, (verdict, cause) in must.items():
        item = seen.get(name)
        if item is None:
            problems.append('%s: not among the audited items' % name)
        elif item['verdict'] != verdict:
            problems.append('%s: %s, expected %s' % (name, item['verdict'], verdict))
        elif cause != '-' and cause not in item['cause']:
            problems.append('%s: cause "%s" does not name "%s"' % (name, item['cause'], cause))
        elif item['failed'] and not os.path.isdir(os.path.join(report, item['repro'])):
            problems.append('%s: no reproducer at %s' % (name, item['repro']))
    for item in items:
        if item['verdict'] == 'not-judged':
            problems.append('%s: not judged: %s' % (item['name'], item['cause']))
        elif item['failed'] and item['name'] not in must and item['name'] not in may:
            problems.append('%s (%s): %s, expected to conform: %s' %
                            (item['name'], item['op'], item['verdict'], item['cause'][:200]))
    for p in problems:
        print('FAIL ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
