#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema, standard library only.

  json_schema_check.py SCHEMA FILE...

Covers the keywords qconform's schemas use: type, const, enum, properties, required,
additionalProperties (boolean), items, minimum, minLength, pattern and $ref into #/$defs.
An unknown keyword is an error, so a schema cannot silently outgrow this checker. Prints every
violation with its JSON path; exits 1 when there is one, 2 on usage errors.
"""
import json
import re
import sys

KNOWN = {"$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "properties",
         "required", "additionalProperties", "items", "minimum", "minLength", "pattern", "$ref"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


def check(value, schema, root, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        raise SystemExit(f"schema at {path}: unsupported keywords {sorted(unknown)}")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SystemExit(f"schema at {path}: unsupported $ref {ref}")
        check(value, root["$defs"][ref[len("#/$defs/"):]], root, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            errors.append(f"{path}: {json.dumps(value)[:60]} is not of type {'/'.join(types)}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {json.dumps(value)[:60]} is not {json.dumps(schema['const'])}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {json.dumps(value)[:60]} is not one of {schema['enum']}")
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below {schema['minimum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{path}: shorter than {schema['minLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{path}: {value[:60]!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: lacks '{key}'")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                check(item, properties[key], root, f"{path}.{key}", errors)
            elif schema.get("additionalProperties", True) is False:
                errors.append(f"{path}: unexpected '{key}'")
    if isinstance(value, list) and "items" in schema:
        for k, item in enumerate(value):
            check(item, schema["items"], root, f"{path}[{k}]", errors)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    failed = False
    for name in argv[2:]:
        with open(name, encoding="utf-8") as f:
            document = json.load(f)
        errors = []
        check(document, schema, schema, "$", errors)
        for e in errors[:50]:
            print(f"{name}: {e}")
        if len(errors) > 50:
            print(f"{name}: ... and {len(errors) - 50} more")
        print(f"{name}: {'valid' if not errors else f'{len(errors)} violations'}")
        failed |= bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
