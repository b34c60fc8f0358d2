#!/usr/bin/python3
"""The compiler cache's promise, checked on the build's own compile commands: two clones of one
commit share ccache entries (cmake/ccache.cmake). ccache rewrites the paths of the command line
under the source root (-I, the source file, -MF), but not the value of a -D: a definition that
holds a path of this clone keys the translation unit by folder. So each such definition must be
given only to the files that read it (qconform_source_definitions), never to a whole target.

  ccache_paths_test.py BUILD_DIR SOURCE_DIR
Fails, naming the file and the definition, when a translation unit is given a definition with
this clone's path in it and its source does not mention the macro; and when the launcher is not
ccache although ccache is installed."""
import json
import os
import re
import shlex
import shutil
import sys


def main():
    build, source = (os.path.realpath(p) for p in sys.argv[1:3])
    commands = json.load(open(os.path.join(build, "compile_commands.json")))
    failures = []
    keyed = 0
    for entry in commands:
        words = shlex.split(entry["command"])
        path = entry["file"]
        text = open(path, encoding="utf-8", errors="replace").read()
        for word in words:
            if not word.startswith("-D"):
                continue
            name, _, value = word[2:].partition("=")
            if source not in value and build not in value:
                continue
            keyed += 1
            if not re.search(r"\b%s\b" % re.escape(name), text):
                failures.append("%s: -D%s holds this clone's path and the file never reads %s "
                                "(give it only to the files that do: qconform_source_definitions)"
                                % (os.path.relpath(path, source), name, name))
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    wanted = re.search(r"^QCONFORM_CCACHE:BOOL=(ON|TRUE|1)$", cache, re.M | re.I)
    rules = os.path.join(build, "CMakeFiles", "rules.ninja")
    if shutil.which("ccache") and wanted and os.path.exists(rules):
        if "ccache" not in open(rules).read():
            failures.append("ccache is installed and QCONFORM_CCACHE is on, but the compile "
                            "rules (CMakeFiles/rules.ninja) do not run it: configure again")
    for f in failures:
        print("FAIL", f)
    print("%d translation units, %d definitions with this clone's path, each read where given; "
          "%d failures" % (len(commands), keyed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
