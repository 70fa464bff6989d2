# FindFFTW: single precision FFTW3 with its threads library, and double precision for test references.
# Defines FFTW::Float, FFTW::FloatThreads, FFTW::Double (when found) and FFTW_FOUND.
find_path(FFTW_INCLUDE_DIR fftw3.h)
find_library(FFTW_FLOAT_LIB fftw3f)
find_library(FFTW_FLOAT_THREADS_LIB fftw3f_threads)
find_library(FFTW_DOUBLE_LIB fftw3)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FFTW REQUIRED_VARS FFTW_INCLUDE_DIR FFTW_FLOAT_LIB FFTW_FLOAT_THREADS_LIB)

if(FFTW_FOUND)
  if(NOT TARGET FFTW::Float)
    add_library(FFTW::Float UNKNOWN IMPORTED)
    set_target_properties(FFTW::Float PROPERTIES IMPORTED_LOCATION ${FFTW_FLOAT_LIB}
                          INTERFACE_INCLUDE_DIRECTORIES ${FFTW_INCLUDE_DIR})
    add_library(FFTW::FloatThreads UNKNOWN IMPORTED)
    set_target_properties(FFTW::FloatThreads PROPERTIES IMPORTED_LOCATION ${FFTW_FLOAT_THREADS_LIB}
                          INTERFACE_LINK_LIBRARIES FFTW::Float)
  endif()
  if(FFTW_DOUBLE_LIB AND NOT TARGET FFTW::Double)
    add_library(FFTW::Double UNKNOWN IMPORTED)
    set_target_properties(FFTW::Double PROPERTIES IMPORTED_LOCATION ${FFTW_DOUBLE_LIB}
                          INTERFACE_INCLUDE_DIRECTORIES ${FFTW_INCLUDE_DIR})
  endif()
endif()
mark_as_advanced(FFTW_INCLUDE_DIR FFTW_FLOAT_LIB FFTW_FLOAT_THREADS_LIB FFTW_DOUBLE_LIB)
