# qconform_add_conformance_test(NAME <name> BACKEND <backend> [EXPECTATIONS <file>]
#                               [REPORT <dir>] [ARGS <qconform run arguments>...])
# A ctest entry that runs the installed qconform against a backend (plugin:<library>,
# exec:<command>, onnxruntime, ...) over the installed golden catalogue and gates it on the
# baseline: it fails when the backend differs from EXPECTATIONS (a new failure, a changed kind, a
# case that now passes), naming each case. <backend> may hold generator expressions
# (plugin:$<TARGET_FILE:my_plugin>). Without EXPECTATIONS every failure is new. The report goes
# to REPORT (default: <build dir>/<name>-report).
function(qconform_add_conformance_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;BACKEND;EXPECTATIONS;REPORT" "ARGS")
  if(NOT arg_NAME OR NOT arg_BACKEND)
    message(FATAL_ERROR "qconform_add_conformance_test: NAME and BACKEND are required")
  endif()
  if(NOT arg_REPORT)
    set(arg_REPORT "${CMAKE_CURRENT_BINARY_DIR}/${arg_NAME}-report")
  endif()
  set(expectations "")
  if(arg_EXPECTATIONS)
    set(expectations --expectations "${arg_EXPECTATIONS}")
  endif()
  add_test(NAME ${arg_NAME}
           COMMAND "${qconform_EXECUTABLE}" run --backend "${arg_BACKEND}" --count 0
                   --golden "${qconform_GOLDEN_DIR}" ${expectations} --report "${arg_REPORT}"
                   ${arg_ARGS})
  set_tests_properties(${arg_NAME} PROPERTIES LABELS "qconform")
endfunction()
