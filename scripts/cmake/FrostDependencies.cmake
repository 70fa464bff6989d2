# System libraries, found with find_package; nothing is vendored.
find_package(FFTW REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)

# JSON (advisor output, caches): nlohmann-json from the system, or a copy of its headers given
# with -DFROST_JSON_INCLUDE_DIR=<dir containing nlohmann/json.hpp> (machines without the package).
find_package(nlohmann_json 3.2 QUIET)
if(NOT nlohmann_json_FOUND)
  find_path(FROST_JSON_INCLUDE_DIR nlohmann/json.hpp)
  if(NOT FROST_JSON_INCLUDE_DIR)
    message(FATAL_ERROR "nlohmann-json not found: install nlohmann-json3-dev or set FROST_JSON_INCLUDE_DIR")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${FROST_JSON_INCLUDE_DIR})
endif()

# SQLite: the journal of a live movie-alignment session (libs/session,
# docs/session.md#journal). Required: exactly-once processing rests on it.
find_package(SQLite3 QUIET)
if(NOT SQLite3_FOUND)
  message(FATAL_ERROR "SQLite 3 not found: install libsqlite3-dev (scripts/install_deps.sh)")
endif()

find_package(TIFF QUIET)
option(FROST_USE_TIFF "Read TIFF movies and gain references (libtiff)" ${TIFF_FOUND})
if(FROST_USE_TIFF AND NOT TIFF_FOUND)
  message(FATAL_ERROR "FROST_USE_TIFF=ON but libtiff was not found")
endif()

find_package(PNG QUIET)
option(FROST_USE_PNG "Write PNG pictures: thumbnails, power spectra, drift and FSC plots (libpng)" ${PNG_FOUND})
if(FROST_USE_PNG AND NOT PNG_FOUND)
  message(FATAL_ERROR "FROST_USE_PNG=ON but libpng was not found")
endif()

find_package(HDF5 QUIET COMPONENTS C)
option(FROST_USE_HDF5 "Read EMAN2 .hdf stacks (HDF5 C library)" ${HDF5_FOUND})
if(FROST_USE_HDF5 AND NOT HDF5_FOUND)
  message(FATAL_ERROR "FROST_USE_HDF5=ON but the HDF5 C library was not found")
endif()
# frost_link_hdf5(<target>): the HDF5 C library, privately (imported target where CMake has one).
function(frost_link_hdf5 target)
  if(TARGET hdf5::hdf5)
    target_link_libraries(${target} PRIVATE hdf5::hdf5)
  else()
    target_include_directories(${target} SYSTEM PRIVATE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
    target_compile_definitions(${target} PRIVATE ${HDF5_C_DEFINITIONS} ${HDF5_DEFINITIONS})
    target_link_libraries(${target} PRIVATE ${HDF5_C_LIBRARIES} ${HDF5_LIBRARIES})
  endif()
endfunction()

find_package(MPI QUIET COMPONENTS CXX)
option(FROST_USE_MPI "Spread work over ranks with MPI" ${MPI_CXX_FOUND})
if(FROST_USE_MPI AND NOT MPI_CXX_FOUND)
  message(FATAL_ERROR "FROST_USE_MPI=ON but no MPI C++ library was found")
endif()

if(FROST_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
