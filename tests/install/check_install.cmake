# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCC=... -DC_FLAGS=... [-DLSAN_SUPPRESSIONS=...]
#       [-DSHIM_CLIENT=... -DSHIM_PRELOAD_PREFIX=...] -P check_install.cmake
# Installs the build tree into WORK_DIR/prefix, a prefix the loader does not search, and with no
# LD_LIBRARY_PATH anywhere:
#   1. runs the installed impax command (bin/impax finds lib/ through its RUNPATH);
#   2. builds the consumer project (find_package and pkg-config through CMake) and runs it;
#   3. builds consumer_ode.c with the compiler and `pkg-config --cflags --libs impax-ode` alone,
#      linked --as-needed so that libimpax.so.0.2 is not the program's own dependency but
#      libimpax_ode's (found through libimpax_ode's RUNPATH), and runs it;
#   4. runs a plain ODE program under the installed LD_PRELOAD shim.
file(REMOVE_RECURSE ${WORK_DIR})
unset(ENV{LD_LIBRARY_PATH})
if(LSAN_SUPPRESSIONS) # the sanitizer build: the command's plot libraries keep caches
  set(ENV{LSAN_OPTIONS} "suppressions=${LSAN_SUPPRESSIONS}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(prefix ${WORK_DIR}/prefix)

# Runs a program; fails naming it unless it exits 0 and its stdout matches the regex expect.
function(expect_run what expect)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc OR NOT out MATCHES "${expect}")
    message(FATAL_ERROR "${what}: status ${rc}, expected output matching '${expect}'\nstdout: ${out}\nstderr: ${err}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

# 1. the installed command, on an installed world
expect_run("installed impax run" "impact events +1 "
           ${prefix}/bin/impax run ${prefix}/share/impax/worlds/plus_ex3_newtons_cradle.world --model plus --duration 0.01)

# 2. the consumer project, through CMake
file(GLOB pc_dirs LIST_DIRECTORIES true ${prefix}/lib*/pkgconfig ${prefix}/lib*/*/pkgconfig)
string(REPLACE ";" ":" pc_path "${pc_dirs}")
set(ENV{PKG_CONFIG_PATH} "${pc_path}")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
                        -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_C_FLAGS=${C_FLAGS}"
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
  expect_run(${exe} "impulse 2: ok" ${WORK_DIR}/build/${exe})
endforeach()
foreach(exe consumer_ode_cmake consumer_ode_pkgconfig)
  expect_run(${exe} "1 event.*: ok" ${WORK_DIR}/build/${exe})
endforeach()

# 3. pkg-config and the compiler alone
foreach(query "--cflags;--libs" "--variable=libdir")
  execute_process(COMMAND pkg-config ${query} impax-ode RESULT_VARIABLE rc OUTPUT_VARIABLE answer
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc)
    message(FATAL_ERROR "pkg-config ${query} impax-ode failed (${rc})")
  endif()
  list(APPEND answers "${answer}")
endforeach()
list(GET answers 0 pc_flags)
list(GET answers 1 pc_libdir)
if(NOT pc_flags MATCHES "-limpax_ode" OR NOT pc_flags MATCHES "-limpax( |$)" OR NOT pc_flags MATCHES "-lode")
  message(FATAL_ERROR "pkg-config --libs impax-ode gave '${pc_flags}': -limpax_ode, -limpax and -lode expected")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
separate_arguments(c_flags UNIX_COMMAND "${C_FLAGS}")
execute_process(COMMAND ${CC} ${c_flags} ${SOURCE_DIR}/consumer_ode.c -o ${WORK_DIR}/consumer_ode_plain
                        -Wl,--as-needed ${pc_flags} -lm -Wl,-rpath,${pc_libdir}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${CC} consumer_ode.c $(pkg-config --cflags --libs impax-ode) failed (${rc})")
endif()
expect_run("consumer_ode built with pkg-config alone" "1 event.*: ok" ${WORK_DIR}/consumer_ode_plain)
message(STATUS "installed impax works through find_package (shared, static) and pkg-config (impax, impax-ode)")

# 4. The installed shim finds its libraries by itself ($ORIGIN).
if(SHIM_CLIENT)
  file(GLOB shim ${prefix}/lib/libimpax_preload.so ${prefix}/lib/*/libimpax_preload.so)
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
