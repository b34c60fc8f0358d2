# A CDash dashboard run of an existing qconform build: its tests (or a selection) run through
# ctest, their results written as CTest's XML (BUILD/Testing/<tag>/Test.xml) and submitted to the
# drop site when one is named. Each machine of a CI matrix runs it with its own site and build
# names, and the dashboard shows them side by side.
#
#   ctest -S cmake/dashboard.cmake -DQCONFORM_BUILD_DIR=build
#         [-DQCONFORM_TESTS=REGEX] [-DQCONFORM_LABELS=REGEX] [-DQCONFORM_JOBS=N]
#         [-DCTEST_SITE=NAME] [-DCTEST_BUILD_NAME=NAME]
#         [-DQCONFORM_CDASH_DROP_SITE=HOST[:PORT]
#          -DQCONFORM_CDASH_DROP_LOCATION=/submit.php?project=qconform
#          -DQCONFORM_CDASH_DROP_METHOD=https]
#
# Without a drop site nothing is sent, and the XML stays in the build directory. The exit status
# is non-zero when a test fails or the submission does.
cmake_minimum_required(VERSION 3.16)
get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT QCONFORM_BUILD_DIR)
  set(QCONFORM_BUILD_DIR "${CTEST_SOURCE_DIRECTORY}/build")
endif()
get_filename_component(CTEST_BINARY_DIRECTORY "${QCONFORM_BUILD_DIR}" ABSOLUTE)
if(NOT EXISTS "${CTEST_BINARY_DIRECTORY}/CTestTestfile.cmake")
  message(FATAL_ERROR "qconform dashboard: ${CTEST_BINARY_DIRECTORY} is not a configured qconform "
                      "build (QCONFORM_BUILD_DIR; tools/build.sh makes one)")
endif()
if(NOT CTEST_SITE)
  cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
endif()
if(NOT CTEST_BUILD_NAME)
  set(CTEST_BUILD_NAME "qconform-${CMAKE_SYSTEM_NAME}")
endif()
if(NOT QCONFORM_JOBS)
  cmake_host_system_information(RESULT QCONFORM_JOBS QUERY NUMBER_OF_LOGICAL_CORES)
endif()

ctest_start(Experimental)  # reads CTestConfig.cmake: the project and the drop site
set(selection "")
if(QCONFORM_TESTS)
  list(APPEND selection INCLUDE "${QCONFORM_TESTS}")
endif()
if(QCONFORM_LABELS)
  list(APPEND selection INCLUDE_LABEL "${QCONFORM_LABELS}")
endif()
ctest_test(${selection} PARALLEL_LEVEL ${QCONFORM_JOBS} RETURN_VALUE test_status)

file(GLOB xml "${CTEST_BINARY_DIRECTORY}/Testing/*/Test.xml")
if(CTEST_DROP_SITE)
  ctest_submit(PARTS Test RETURN_VALUE submit_status)
  if(NOT submit_status EQUAL 0)
    message(FATAL_ERROR "qconform dashboard: the submission to ${CTEST_DROP_SITE} failed")
  endif()
else()
  message(STATUS "qconform dashboard: not submitted (no QCONFORM_CDASH_DROP_SITE); the results "
                 "are in ${xml}")
endif()
if(NOT test_status EQUAL 0)
  message(FATAL_ERROR "qconform dashboard: tests failed")
endif()
