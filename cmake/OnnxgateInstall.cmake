# `cmake --install`: the onnxgate binary, the plugin ABI header, the built-in runtime as a
# plugin, and a CMake package (find_package(onnxgate)) with which an out-of-tree project builds
# a plugin (examples/relu_plugin).
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

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/onnxgateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/onnxgateConfig.cmake
  INSTALL_DESTINATION ${ONNXGATE_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR ONNXGATE_INSTALL_PLUGINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/onnxgateConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/onnxgateConfig.cmake
              ${PROJECT_BINARY_DIR}/onnxgateConfigVersion.cmake
        DESTINATION ${ONNXGATE_INSTALL_CMAKEDIR})
