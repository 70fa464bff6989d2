# FROST_SANITIZE: sanitizers for the host code, e.g. "address,undefined" (CMake preset cpu-asan,
# scripts/sanitize.sh). Undefined behaviour is fatal (-fno-sanitize-recover), so a test that
# triggers it fails instead of printing a warning nobody reads. CUDA device code is checked
# with compute-sanitizer on the GPU machine instead.
set(FROST_SANITIZE "" CACHE STRING "Host sanitizers (-fsanitize=...), e.g. address,undefined; empty = none")
if(FROST_SANITIZE)
  set(_frost_san_flags -fsanitize=${FROST_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_frost_san_flags}>")
  add_link_options(-fsanitize=${FROST_SANITIZE})
  message(STATUS "frost: host sanitizers ${FROST_SANITIZE}")
endif()

# FROST_BUILD_FUZZ: libFuzzer targets for the parsers of untrusted input (tests/fuzz,
# scripts/fuzz.sh). Needs Clang. The libraries the fuzz targets reach get libFuzzer's coverage
# instrumentation (frost_fuzz_instrument); the numerical libraries do not, so a tree built for
# both the sanitized test suite and fuzzing (scripts/sanitize.sh) runs its tests at full speed.
option(FROST_BUILD_FUZZ "Build the libFuzzer targets under tests/fuzz (Clang only)" OFF)
if(FROST_BUILD_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "FROST_BUILD_FUZZ needs Clang (libFuzzer); configure with CXX=clang++ CC=clang")
endif()
# frost_fuzz_instrument(<target>): coverage instrumentation for libFuzzer when FROST_BUILD_FUZZ.
function(frost_fuzz_instrument target)
  if(FROST_BUILD_FUZZ)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
  endif()
endfunction()
