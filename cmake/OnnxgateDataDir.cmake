# Where `cmake --install` puts the data an installed onnxgate runs on (suites, goldens,
# expectations, tolerances, adapters): ONNXGATE_INSTALL_DATADIR, <datadir>/onnxgate under the
# prefix. The onnxgate binary learns that folder's path relative to its own (../share/onnxgate)
# and uses it as its default --root when it holds suites/ (harness/cli/main.cc), so an install
# moved to another prefix still finds its data.
include(GNUInstallDirs)
set(ONNXGATE_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/onnxgate)
file(RELATIVE_PATH onnxgate_data_from_bin ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/onnxgate)
target_compile_definitions(onnxgate PRIVATE
                           ONNXGATE_INSTALLED_DATA_DIR="${onnxgate_data_from_bin}")
