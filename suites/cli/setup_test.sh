#!/usr/bin/env bash
# tools/setup.sh's own words, without installing anything: --help prints its usage (it once took
# --help for a build directory and failed), an unknown option or two directories are usage
# errors (exit 2), and --vendor is documented.
#   setup_test.sh SOURCE_DIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
setup="$1/tools/setup.sh"

expect help 0 'tools/setup.sh \[--vendor\] \[BUILD_DIR\]' -- bash "$setup" --help
expect help-short 0 '^--vendor: only what building qconform' -- bash "$setup" -h
expect unknown-option 2 'unknown option --bogus' -- bash "$setup" --bogus
expect two-directories 2 'one BUILD_DIR at most' -- bash "$setup" a b
finish
