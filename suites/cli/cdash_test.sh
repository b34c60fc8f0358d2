#!/usr/bin/env bash
# The CDash path, as far as a machine without a dashboard can take it: cmake/dashboard.cmake runs
# a test and submits CTest's XML to a drop site (a stand-in on a loopback port, which keeps what
# it receives); without a drop site it writes the XML and sends nothing; a drop site that
# refuses fails the run; `ctest -D ExperimentalStart -D ExperimentalTest` in the build directory
# writes the same XML.
#   cdash_test.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
source_dir=$1 build_dir=$2
work=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/loopback.sh"
trap 'stop_servers; rm -rf "$work"' EXIT
test_name='qconform.usage_error'

drop_site() {  # OUT_DIR [STATUS]: a stand-in drop site on a free port; sets $port
  mkdir -p "$1"
  listen_on_free_port /usr/bin/python3 "$source_dir/suites/lib/cdash_drop_site.py" "{PORT}" "$@"
}

dashboard() {  # extra -D arguments
  ctest -S "$source_dir/cmake/dashboard.cmake" -DQCONFORM_BUILD_DIR="$build_dir" \
    -DQCONFORM_TESTS="^${test_name//./\\.}\$" -DCTEST_SITE=qconform-test-site \
    -DCTEST_BUILD_NAME=qconform-test-build "$@"
}

drop_site "$work/received"
expect "the dashboard run submits to the drop site" 0 "" -- dashboard \
  -DQCONFORM_CDASH_DROP_SITE="127.0.0.1:$port" "-DQCONFORM_CDASH_DROP_LOCATION=/submit.php?project=qconform" \
  -DQCONFORM_CDASH_DROP_METHOD=http
expect "CDash received Test.xml for the project, site and build" 0 "" -- \
  grep -q "^PUT /submit.php?project=qconform&FileName=qconform-test-site___qconform-test-build___.*Test.xml&build=qconform-test-build&site=qconform-test-site" \
  "$work/received/request-0"
expect "the XML holds the test and its status" 0 "" -- \
  grep -Pzq "<Test Status=\"passed\">\\s*<Name>$test_name</Name>" "$work/received/request-0"

expect "without a drop site nothing is sent, and the XML is written" 0 "not submitted.*Test.xml" -- \
  dashboard -V
drop_site "$work/refusing" 500
expect "a drop site that refuses fails the run, named" 255 "submission to 127.0.0.1:$port failed" -- \
  dashboard -DQCONFORM_CDASH_DROP_SITE="127.0.0.1:$port" "-DQCONFORM_CDASH_DROP_LOCATION=/submit.php?project=qconform" \
  -DQCONFORM_CDASH_DROP_METHOD=http
# (CMake wraps a message to its width: the lines joined, whatever the directory's length)
joined() { local out rc; out=$("$@" 2>&1); rc=$?; tr -s '\n ' '  ' <<<"$out"; echo; return "$rc"; }
expect "a directory that is no build is refused, named" 255 "is not a configured qconform build" -- \
  joined ctest -S "$source_dir/cmake/dashboard.cmake" -DQCONFORM_BUILD_DIR="$work"

# The plain dashboard steps in the build directory (what `ctest -D Experimental` runs, the
# configure, build and submit steps aside).
expect "ctest -D ExperimentalStart -D ExperimentalTest writes Test.xml" 0 "" -- \
  ctest --test-dir "$build_dir" -D ExperimentalStart -D ExperimentalTest -R "^${test_name//./\\.}\$"
tag=$(head -1 "$build_dir/Testing/TAG")
expect "its Test.xml holds the test" 0 "" -- grep -q "<Name>$test_name</Name>" "$build_dir/Testing/$tag/Test.xml"
finish
