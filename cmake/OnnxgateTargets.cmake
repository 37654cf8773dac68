# Helpers that give every onnxgate target the same options: C++17, warnings as errors, the
# repository root on the include path (headers are included as "runtime/base/status.h").

function(onnxgate_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-unused-parameter)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()

# onnxgate_library(<name> SOURCES <files...> DEPS <targets...> PRIVATE_DEPS <targets...>)
# DEPS are what the library's public headers include (PUBLIC: a user of the library gets their
# include paths and definitions too); PRIVATE_DEPS are what only its sources include (PRIVATE: a
# static library still links them into its users, but their include paths and definitions stay
# out of its users' compilations).
function(onnxgate_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  onnxgate_target_options(${name})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

# onnxgate_test(<name> SOURCES <files...> DEPS <targets...>): a gtest binary discovered by CTest.
function(onnxgate_test name)
  if(NOT ONNXGATE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  onnxgate_target_options(${name})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gmock GTest::gtest_main)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "unit")
endfunction()
