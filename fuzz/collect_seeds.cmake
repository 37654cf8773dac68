# Gathers the seed folders the fuzz targets read that are not repository folders as they are:
# the JSON files onnxgate reads (suites, expectations, tolerances, thresholds) and generated
# TensorProto files. Run by the CTest fixture fuzz.seeds:
#   cmake -DSEEDS=<folder> -DROOT=<repository> -DMAKE_SEEDS=<fuzz_make_seeds> -P collect_seeds.cmake
file(REMOVE_RECURSE ${SEEDS})
file(MAKE_DIRECTORY ${SEEDS}/json ${SEEDS}/tensor_proto)
file(GLOB json_files ${ROOT}/suites/smoke/suite.json ${ROOT}/conformance/expectations/*.json
     ${ROOT}/conformance/tolerances.json ${ROOT}/golden/baselines/*.json)
set(index 0)
foreach(f IN LISTS json_files)
  math(EXPR index "${index} + 1")
  get_filename_component(name ${f} NAME)
  configure_file(${f} ${SEEDS}/json/${index}_${name} COPYONLY)
endforeach()
execute_process(COMMAND ${MAKE_SEEDS} ${SEEDS}/tensor_proto RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz_make_seeds failed: ${rc}")
endif()
