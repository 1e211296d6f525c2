# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DC_FLAGS=... -P check_install.cmake
# Installs the build tree into WORK_DIR/prefix, builds the consumer against it and runs it.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(ENV{PKG_CONFIG_PATH} "${WORK_DIR}/prefix/lib/pkgconfig:${WORK_DIR}/prefix/lib/x86_64-linux-gnu/pkgconfig")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix "-DCMAKE_C_FLAGS=${C_FLAGS}"
                        "-DCMAKE_EXE_LINKER_FLAGS=${C_FLAGS}"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer against the installed impax failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
foreach(exe consumer_cmake consumer_static consumer_pkgconfig)
  set(ENV{LD_LIBRARY_PATH} "${WORK_DIR}/prefix/lib:${WORK_DIR}/prefix/lib/x86_64-linux-gnu")
  execute_process(COMMAND ${WORK_DIR}/build/${exe} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${exe} failed (${rc})")
  endif()
endforeach()
message(STATUS "installed impax works through find_package (shared, static) and pkg-config")

# The installed shim finds its libraries by itself ($ORIGIN): no LD_LIBRARY_PATH here.
if(SHIM_CLIENT)
  unset(ENV{LD_LIBRARY_PATH})
  file(GLOB shim ${WORK_DIR}/prefix/lib/libimpax_preload.so ${WORK_DIR}/prefix/lib/*/libimpax_preload.so)
  if(NOT shim)
    message(FATAL_ERROR "libimpax_preload.so was not installed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_PRELOAD=${SHIM_PRELOAD_PREFIX}${shim}"
                          IMPAX_MODEL=plus IMPAX_VERBOSE=1 ${SHIM_CLIENT}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(rc OR NOT err MATCHES "impax: model plus: 1 impact events")
    message(FATAL_ERROR "the installed shim under ${SHIM_CLIENT}: status ${rc}, said: ${err}")
  endif()
  message(STATUS "the installed libimpax_preload.so works under a plain ODE program")
endif()
