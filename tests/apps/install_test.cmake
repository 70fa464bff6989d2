# `cmake --install` test (ctest frost_install): installs the build into a fresh prefix, then runs
# every installed program with --version from there, LD_LIBRARY_PATH unset, so the programs must
# find their shared libraries through the installed rpath alone; the rpath must not point into
# the build tree.
# Usage: cmake -DBUILD_DIR=<build> -DPREFIX=<empty dir to create> -P install_test.cmake
foreach(var BUILD_DIR PREFIX)
  if(NOT ${var})
    message(FATAL_ERROR "install_test.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()

set(programs frost_simulate frost_fft_advisor frost_reconstruct_fourier frost_movie_align frost_align_significant
             frost_tune)
foreach(program IN LISTS programs)
  set(exe "${PREFIX}/bin/${program}")
  if(NOT EXISTS "${exe}")
    message(FATAL_ERROR "${exe} was not installed")
  endif()
  file(READ_ELF "${exe}" RUNPATH runpath RPATH rpath CAPTURE_ERROR elf_error)
  if(NOT elf_error)
    string(FIND "${runpath}${rpath}" "${BUILD_DIR}" in_build)
    if(NOT in_build EQUAL -1)
      message(FATAL_ERROR "${exe}: rpath '${runpath}${rpath}' points into the build tree")
    endif()
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH "${exe}" --version
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${program}")
    message(FATAL_ERROR "${exe} --version failed (${rc}):\n${out}\n${err}")
  endif()
  string(REGEX MATCH "^[^\n]*" first_line "${out}")
  message(STATUS "${first_line} (rpath: ${runpath}${rpath})")
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
