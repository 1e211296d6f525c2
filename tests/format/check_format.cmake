# Every C source and header of the repository is formatted as the root's .clang-format says
# (CONTRIBUTING.md "Format"): clang-format --dry-run --Werror over all of them, the files that
# differ named.
#   cmake -DCLANG_FORMAT=... -DSOURCE_DIR=... -P check_format.cmake
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/core/*.[ch] ${SOURCE_DIR}/adapters/*.[ch] ${SOURCE_DIR}/plugin/*.[ch]
     ${SOURCE_DIR}/bench/*.[ch] ${SOURCE_DIR}/tests/*.[ch])
list(LENGTH sources n)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${sources} WORKING_DIRECTORY ${SOURCE_DIR}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE findings)
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: (error|warning): code should be clang-formatted" lines "${findings}")
  set(bad "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ":[0-9]+:[0-9]+: .*" "" file "${line}")
    list(APPEND bad ${file})
  endforeach()
  list(REMOVE_DUPLICATES bad)
  list(LENGTH bad n_bad)
  list(JOIN bad "\n  " shown)
  message(FATAL_ERROR "${n_bad} of ${n} files are not formatted as .clang-format says "
                      "(clang-format -i FILE mends one):\n  ${shown}")
endif()
message(STATUS "all ${n} C files are formatted as .clang-format says")
