# The compiler cache. When ccache is installed (tools/setup.sh installs Debian's), every C++
# compile goes through it, in the main and the sanitizer build alike. Two clones of one commit in
# different folders share its entries: ccache rewrites absolute paths under base_dir (the source
# root, which holds build/ and build-sanitize/) to relative ones before hashing, and the working
# directory is left out of the hash (hash_dir off) so that the -g of the sanitizer build does not
# key entries by folder. What else could carry a folder into the hash, a -D with an absolute path,
# is given only to the files that use it (qconform_source_definitions below; ctest's
# tools.ccache_paths checks). A cold cache compiles exactly as no cache does.
#   -DQCONFORM_CCACHE=OFF   compile without it;  CCACHE_DISABLE=1 in the environment, likewise.
option(QCONFORM_CCACHE "Compile through ccache when it is installed" ON)
if(QCONFORM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(QCONFORM_CCACHE_PROGRAM ccache)
  if(QCONFORM_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1
        "${QCONFORM_CCACHE_PROGRAM}")
  endif()
endif()

# Compile definitions for some source files of a target, not the whole target: a definition that
# holds a path of this clone (the golden catalogue, a built plugin) keys only the files that read
# it, and every other file of the target hits the cache from any clone.
#   qconform_source_definitions(TARGET t SOURCES a.cc b.cc DEFINITIONS NAME="value" ...)
function(qconform_source_definitions)
  cmake_parse_arguments(arg "" "TARGET" "SOURCES;DEFINITIONS" ${ARGN})
  if(NOT arg_TARGET OR NOT arg_SOURCES OR NOT arg_DEFINITIONS)
    message(FATAL_ERROR "qconform_source_definitions: TARGET, SOURCES and DEFINITIONS are needed")
  endif()
  set_property(SOURCE ${arg_SOURCES} TARGET_DIRECTORY ${arg_TARGET} APPEND
               PROPERTY COMPILE_DEFINITIONS ${arg_DEFINITIONS})
endfunction()
