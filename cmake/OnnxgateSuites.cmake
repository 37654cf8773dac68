# onnxgate_add_suite(SUITE <name> [EPS <ep>...] [GROUP case|op] [RUNTIME <spec>]
#                    [RUNTIME_OPTIONS <key=value>...] [EXPECTATIONS_DIR <dir>]): registers a
# suite's cases as CTest tests, each with the separate labels conformance, suite:<name>, ep:<ep>,
# runtime:<runtime name>, opset:<N> and op:<Op> for every op its cases use. RUNTIME is what
# `--runtime` takes (builtin, plugin:<file.so>, adapter:<command>, a registry name); without EPS a
# runtime's tests run on its first provider (the built-in runtime's: ref).
#
# Like gtest_discover_tests, the test list is made at build time: `onnxgate list --ctest-script`
# reads suites/<name>/suite.json and writes a CTest script that ctest includes. GROUP case gives
# one test per case; GROUP op one test per (first op type, opset), which keeps ctest's process
# count small for large suites. Every test runs `onnxgate gate`, so expectations apply.
function(onnxgate_add_suite)
  if(NOT ONNXGATE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "SUITE;GROUP;RUNTIME;EXPECTATIONS_DIR" "EPS;RUNTIME_OPTIONS"
                        ${ARGN})
  if(NOT ARG_GROUP)
    set(ARG_GROUP case)
  endif()
  set(suite_json ${PROJECT_SOURCE_DIR}/suites/${ARG_SUITE}/suite.json)
  set(name ${ARG_SUITE})
  set(ep_args)
  foreach(ep IN LISTS ARG_EPS)
    list(APPEND ep_args --ep ${ep})
  endforeach()
  if(ARG_RUNTIME)
    # One script per suite and runtime: the target's name says which.
    string(MD5 runtime_hash "${ARG_RUNTIME}")
    string(SUBSTRING ${runtime_hash} 0 8 runtime_hash)
    set(name ${ARG_SUITE}_${runtime_hash})
    list(APPEND ep_args --runtime ${ARG_RUNTIME})
  endif()
  foreach(option IN LISTS ARG_RUNTIME_OPTIONS)
    list(APPEND ep_args --runtime-option=${option})
  endforeach()
  if(ARG_EXPECTATIONS_DIR)
    list(APPEND ep_args --expectations-dir ${ARG_EXPECTATIONS_DIR})
  endif()
  set(script ${CMAKE_CURRENT_BINARY_DIR}/${name}_tests.cmake)
  add_custom_command(
    OUTPUT ${script}
    COMMAND onnxgate --root ${PROJECT_SOURCE_DIR} list --suite ${ARG_SUITE} ${ep_args}
            --group ${ARG_GROUP} --ctest-script ${script}
    DEPENDS onnxgate ${suite_json}
    COMMENT "Registering suite ${ARG_SUITE} with CTest"
    VERBATIM)
  add_custom_target(${name}_ctest_script ALL DEPENDS ${script})
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
