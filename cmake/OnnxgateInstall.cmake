# `cmake --install`: the onnxgate binary, the plugin ABI header, the built-in runtime as a
# plugin, the data the binary runs on under ONNXGATE_INSTALL_DATADIR (its default --root:
# cmake/OnnxgateDataDir.cmake), and a CMake package (find_package(onnxgate)) with which an
# out-of-tree project builds a plugin (examples/relu_plugin) and registers suites with CTest
# (onnxgate_add_suite, examples/ci_project).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ONNXGATE_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/onnxgate)
set(ONNXGATE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/onnxgate)

file(STRINGS ${PROJECT_SOURCE_DIR}/runtime/plugin/include/onnxgate/plugin.h abi_line
     REGEX "^#define ONNXGATE_PLUGIN_ABI_VERSION [0-9]+u$")
string(REGEX REPLACE "^#define ONNXGATE_PLUGIN_ABI_VERSION ([0-9]+)u$" "\\1"
       ONNXGATE_PLUGIN_ABI_VERSION "${abi_line}")
if(NOT ONNXGATE_PLUGIN_ABI_VERSION MATCHES "^[0-9]+$")
  message(FATAL_ERROR "cannot read ONNXGATE_PLUGIN_ABI_VERSION from plugin.h")
endif()

install(TARGETS onnxgate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS onnxgate_builtin_plugin LIBRARY DESTINATION ${ONNXGATE_INSTALL_PLUGINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/runtime/plugin/include/onnxgate/plugin.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/onnxgate)

# What --root must hold, and nothing else: each suite's suite.json and models, the goldens, the
# tolerances and expectations, the latency thresholds, and the adapters with their registry.
# The adapters' virtual environments are not installed: adapters/runtimes.json names them as
# .venv/<name> under the data folder, made from the requirements files installed beside them
# (docs/architecture.md, "Packaging").
install(DIRECTORY ${PROJECT_SOURCE_DIR}/suites/ DESTINATION ${ONNXGATE_INSTALL_DATADIR}/suites
        FILES_MATCHING PATTERN "suite.json" PATTERN "*.onnx" PATTERN "*.onnxtxt")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/golden/data/
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/golden/data FILES_MATCHING PATTERN "*.h5")
install(FILES ${PROJECT_SOURCE_DIR}/golden/baselines/thresholds.json
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/golden/baselines)
install(FILES ${PROJECT_SOURCE_DIR}/conformance/tolerances.json
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/conformance)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/conformance/expectations/
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/conformance/expectations
        FILES_MATCHING PATTERN "*.json")
# Every adapter module with its registry and launcher (adapters/in-venv.sh, executable), but not
# the adapters' own tests; each virtual environment's pinned requirements beside its adapter.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/adapters/ DESTINATION ${ONNXGATE_INSTALL_DATADIR}/adapters
        FILES_MATCHING PATTERN "*.py" PATTERN "runtimes.json"
        PATTERN "*_test.py" EXCLUDE PATTERN "__pycache__" EXCLUDE)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/adapters/in-venv.sh
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/adapters)
install(FILES ${PROJECT_SOURCE_DIR}/ci/requirements/ort-adapter.txt
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/adapters/ort RENAME requirements.txt)
install(FILES ${PROJECT_SOURCE_DIR}/ci/requirements/ort-openvino.txt
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/adapters/ort RENAME requirements-openvino.txt)
install(FILES ${PROJECT_SOURCE_DIR}/ci/requirements/ort-gpu.txt
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/adapters/ort RENAME requirements-gpu.txt)
install(FILES ${PROJECT_SOURCE_DIR}/ci/requirements/openvino.txt
        DESTINATION ${ONNXGATE_INSTALL_DATADIR}/adapters/openvino RENAME requirements.txt)

# The package: onnxgateConfig.cmake, its version file, and onnxgate_add_suite() shared with
# this build (cmake/OnnxgateAddSuite.cmake).
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/onnxgateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/onnxgateConfig.cmake
  INSTALL_DESTINATION ${ONNXGATE_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR ONNXGATE_INSTALL_PLUGINDIR
            ONNXGATE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/onnxgateConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/onnxgateConfig.cmake
              ${PROJECT_BINARY_DIR}/onnxgateConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/OnnxgateAddSuite.cmake
        DESTINATION ${ONNXGATE_INSTALL_CMAKEDIR})
