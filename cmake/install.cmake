# cmake --install: the qconform command and the plugin host, the libraries and public headers
# of the layers a vendor builds on (core, registry, oracle, verdict, ONNX I/O, generators,
# adapters, runner), the golden catalogue, baselines, semantics and protocol documents, and a
# package configuration, so that find_package(qconform CONFIG) gives qconform::core,
# qconform::oracle, qconform::verdict, qconform::onnx_io, qconform::generators,
# qconform::adapters and qconform::runner: a vendor's own C++ backend implements
# adapters/backend.h and runs in process (examples/consumer/my_backend_test.cc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The oracle's families (oracle/semantics/*/) are libraries of their own under qconform::oracle.
set(qconform_libraries qconform_core qconform_registry qconform_oracle_common
    qconform_oracle_linear qconform_oracle_integer qconform_oracle_float_output
    qconform_oracle_graph qconform_oracle_qlinear_group qconform_oracle qconform_verdict
    qconform_onnx_io qconform_generators qconform_adapters qconform_runner)
foreach(lib IN LISTS qconform_libraries)
  string(REPLACE "qconform_" "" short "${lib}")
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
endforeach()
install(TARGETS ${qconform_libraries} EXPORT qconformTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/qconform)
install(TARGETS qconform qconform-plugin-host RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The C plugin ABI header alone, for a plugin that links nothing of qconform's.
add_library(qconform_plugin_abi INTERFACE)
set_target_properties(qconform_plugin_abi PROPERTIES EXPORT_NAME plugin)
target_include_directories(qconform_plugin_abi INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/qconform>)
install(TARGETS qconform_plugin_abi EXPORT qconformPluginTargets)
install(TARGETS qconform_example_plugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/qconform)
foreach(target IN LISTS QCONFORM_BUILT_PLUGIN_TARGETS)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/qconform)
endforeach()

# Headers keep their layer paths (#include "oracle/semantics/oracle.h").
foreach(dir oracle/core oracle/registry oracle/semantics verdict onnx_io generators adapters runner)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/qconform/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()

# Data: what an installed qconform reads (found relative to its own prefix).
set(qconform_data ${CMAKE_INSTALL_DATADIR}/qconform)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/golden/ DESTINATION ${qconform_data}/golden)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/suites/expectations/ DESTINATION ${qconform_data}/expectations)
install(FILES ${PROJECT_SOURCE_DIR}/adapters/onnxruntime/runner.js
              ${PROJECT_SOURCE_DIR}/adapters/onnxruntime/types.js
              ${PROJECT_SOURCE_DIR}/adapters/onnxruntime/rewritten.js
        DESTINATION ${qconform_data}/adapters/onnxruntime)
install(FILES ${PROJECT_SOURCE_DIR}/adapters/python/qconform_exec.py
              ${PROJECT_SOURCE_DIR}/adapters/python/pytorch_backend.py
        DESTINATION ${qconform_data}/adapters/python)
install(FILES ${PROJECT_SOURCE_DIR}/adapters/PROTOCOL.md ${PROJECT_SOURCE_DIR}/docs/semantics.md
              ${PROJECT_SOURCE_DIR}/report/results.schema.json
              ${PROJECT_SOURCE_DIR}/report/audit.schema.json
              ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(qconform_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/qconform)
install(EXPORT qconformTargets NAMESPACE qconform:: DESTINATION ${qconform_cmake_dir})
install(EXPORT qconformPluginTargets NAMESPACE qconform:: DESTINATION ${qconform_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/qconformConfig.cmake.in
  ${PROJECT_BINARY_DIR}/qconformConfig.cmake INSTALL_DESTINATION ${qconform_cmake_dir}
  PATH_VARS qconform_data)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/qconformConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/qconformConfig.cmake
              ${PROJECT_BINARY_DIR}/qconformConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/qconformFunctions.cmake
        DESTINATION ${qconform_cmake_dir})
