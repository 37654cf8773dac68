# onnxgate_add_suite() in onnxgate's own build (cmake/OnnxgateAddSuite.cmake, which the installed
# package shares): the tests run the onnxgate target of this build on the source tree's suites.
# Without ONNXGATE_BUILD_TESTS it registers nothing.
if(ONNXGATE_BUILD_TESTS)
  set(ONNXGATE_EXECUTABLE onnxgate)
  set(ONNXGATE_DATA_DIR ${PROJECT_SOURCE_DIR})
  include(OnnxgateAddSuite)
else()
  function(onnxgate_add_suite)
  endfunction()
endif()
