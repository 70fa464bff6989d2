# Cold code: sources that write reports or read a small file once (the FFT advisor's report and
# device profile, the session's HTML report, frost_tune's options and output) and never run in a
# loop. Their compile time is mostly template instantiation of nlohmann::json, which -O3 makes far
# dearer for no run-time gain, so they compile at FROST_COLD_OPT_FLAGS instead of the build type's
# level (docs/development.md#tests). The record parsers of the caches and sessions are not cold:
# every program reads its caches at start, and a session rereads its records.
# Empty keeps the build type's flags.
set(FROST_COLD_OPT_FLAGS "-O1" CACHE STRING "Host optimisation flags for cold (metadata-only) sources")

# frost_cold_sources(<source files...>): files relative to the calling folder.
function(frost_cold_sources)
  if(NOT FROST_COLD_OPT_FLAGS OR CMAKE_BUILD_TYPE STREQUAL "Debug")
    return()
  endif()
  set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS
               "$<$<COMPILE_LANGUAGE:CXX>:${FROST_COLD_OPT_FLAGS}>")
endfunction()
