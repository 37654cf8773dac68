# onnxgate_add_suite(SUITE <name> EPS <ep>... [GROUP case|op]): registers a suite's cases as CTest
# tests, each with the separate labels conformance, suite:<name>, ep:<ep>, opset:<N> and op:<Op>
# for every op its cases use.
#
# Like gtest_discover_tests, the test list is made at build time: `onnxgate list --ctest-script`
# reads suites/<name>/suite.json and writes a CTest script that ctest includes. GROUP case gives
# one test per case; GROUP op one test per (first op type, opset), which keeps ctest's process
# count small for large suites. Every test runs `onnxgate gate`, so expectations apply.
function(onnxgate_add_suite)
  if(NOT ONNXGATE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "SUITE;GROUP" "EPS" ${ARGN})
  if(NOT ARG_GROUP)
    set(ARG_GROUP case)
  endif()
  set(suite_json ${PROJECT_SOURCE_DIR}/suites/${ARG_SUITE}/suite.json)
  set(script ${CMAKE_CURRENT_BINARY_DIR}/${ARG_SUITE}_tests.cmake)
  set(ep_args)
  foreach(ep IN LISTS ARG_EPS)
    list(APPEND ep_args --ep ${ep})
  endforeach()
  add_custom_command(
    OUTPUT ${script}
    COMMAND onnxgate --root ${PROJECT_SOURCE_DIR} list --suite ${ARG_SUITE} ${ep_args}
            --group ${ARG_GROUP} --ctest-script ${script}
    DEPENDS onnxgate ${suite_json}
    COMMENT "Registering suite ${ARG_SUITE} with CTest"
    VERBATIM)
  add_custom_target(${ARG_SUITE}_ctest_script ALL DEPENDS ${script})
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
