# onnxgate_add_suite(SUITE <name> [RUNTIME <spec>] [RUNTIME_OPTIONS <key=value>...]
#                    [EP <ep>...] [EPS <ep>...] [EXPECTATIONS_DIR <dir>] [GROUP case|op]
#                    [LABELS <label>...])
# registers a suite's cases as CTest tests, each with the separate labels conformance,
# suite:<name>, ep:<ep>, runtime:<runtime name>, opset:<N>, op:<Op> for every op its cases use,
# and every label of LABELS. RUNTIME is what `--runtime` takes (builtin, plugin:<file.so>,
# adapter:<command>, a registry name); EP and EPS are the same list (an EP may be a priority list
# such as OpenVINOExecutionProvider+CPUExecutionProvider, passed to `gate --ep` unchanged);
# without them a runtime's tests run on its first provider (the built-in runtime's: ref).
#
# Like gtest_discover_tests, the test list is made at build time: `onnxgate list --ctest-script`
# reads <data dir>/suites/<name>/suite.json and writes a CTest script that ctest includes. GROUP
# case (the default) gives one test per case; GROUP op one test per (first op type, opset), which
# keeps ctest's process count small for large suites. Every test runs `onnxgate gate`, so
# expectations apply.
#
# The caller sets ONNXGATE_EXECUTABLE (the onnxgate binary, or the onnxgate target in its own
# build) and ONNXGATE_DATA_DIR (the root holding suites/, golden/data/, conformance/ and
# adapters/); the onnxgate package sets both to the installed ones.
function(onnxgate_add_suite)
  cmake_parse_arguments(ARG "" "SUITE;GROUP;RUNTIME;EXPECTATIONS_DIR"
                        "EP;EPS;RUNTIME_OPTIONS;LABELS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "onnxgate_add_suite: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SUITE)
    message(FATAL_ERROR "onnxgate_add_suite: SUITE <name> is required")
  endif()
  if(NOT ONNXGATE_EXECUTABLE OR NOT ONNXGATE_DATA_DIR)
    message(FATAL_ERROR "onnxgate_add_suite: set ONNXGATE_EXECUTABLE and ONNXGATE_DATA_DIR "
                        "(find_package(onnxgate) does)")
  endif()
  set(suite_json ${ONNXGATE_DATA_DIR}/suites/${ARG_SUITE}/suite.json)
  if(NOT EXISTS ${suite_json})
    message(FATAL_ERROR "onnxgate_add_suite: no suite '${ARG_SUITE}': ${suite_json} does not exist")
  endif()
  if(NOT ARG_GROUP)
    set(ARG_GROUP case)
  endif()
  set(list_args --group ${ARG_GROUP})
  foreach(ep IN LISTS ARG_EP ARG_EPS)
    list(APPEND list_args --ep ${ep})
  endforeach()
  set(name ${ARG_SUITE})
  if(ARG_RUNTIME)
    list(APPEND list_args --runtime ${ARG_RUNTIME})
  endif()
  foreach(option IN LISTS ARG_RUNTIME_OPTIONS)
    list(APPEND list_args --runtime-option=${option})
  endforeach()
  if(ARG_EXPECTATIONS_DIR)
    list(APPEND list_args --expectations-dir ${ARG_EXPECTATIONS_DIR})
  endif()
  foreach(label IN LISTS ARG_LABELS)
    list(APPEND list_args --label=${label})
  endforeach()
  if(ARG_RUNTIME OR ARG_LABELS OR ARG_RUNTIME_OPTIONS OR ARG_EXPECTATIONS_DIR)
    # One script per suite and registration: the target's name says which.
    string(MD5 args_hash "${list_args}")
    string(SUBSTRING ${args_hash} 0 8 args_hash)
    set(name ${ARG_SUITE}_${args_hash})
  endif()
  set(script ${CMAKE_CURRENT_BINARY_DIR}/${name}_tests.cmake)
  add_custom_command(
    OUTPUT ${script}
    COMMAND ${ONNXGATE_EXECUTABLE} --root ${ONNXGATE_DATA_DIR} list --suite ${ARG_SUITE}
            ${list_args} --ctest-script ${script}
    DEPENDS ${ONNXGATE_EXECUTABLE} ${suite_json}
    COMMENT "Registering suite ${ARG_SUITE} with CTest"
    VERBATIM)
  add_custom_target(${name}_ctest_script ALL DEPENDS ${script})
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
