# Pick CMAKE_CUDA_ARCHITECTURES before CUDA is enabled.
# A user-supplied value always wins. Otherwise: `native` when nvidia-smi sees a GPU,
# else 90 (Hopper, the test machines). Fat binaries: -DCMAKE_CUDA_ARCHITECTURES="70;80;86;89;90".
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  find_program(FROST_NVIDIA_SMI nvidia-smi)
  set(_frost_arch 90)
  if(FROST_NVIDIA_SMI)
    execute_process(COMMAND ${FROST_NVIDIA_SMI} -L RESULT_VARIABLE _smi_rc
                    OUTPUT_VARIABLE _smi_out ERROR_QUIET)
    if(_smi_rc EQUAL 0 AND _smi_out MATCHES "GPU 0")
      set(_frost_arch native)
    endif()
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${_frost_arch} CACHE STRING "CUDA architectures (native, or a list such as 70;80;90)")
endif()
