#pragma once
/// @file hd.hpp
/// @brief FROST_HD marks inline math shared by the CPU loops and the CUDA kernels.
#if defined(__CUDACC__)
#define FROST_HD __host__ __device__
#else
#define FROST_HD
#endif
