#pragma once
/// @file sanitizers.hpp
/// @brief Which sanitizer a test build runs under, for tests that cannot hold there.
///
/// FROST_TEST_UNDER_ASAN: AddressSanitizer (it reserves terabytes of address space for its shadow
/// memory, so no program of the build starts under `ulimit -v`).
/// FROST_TEST_SANITIZER_ALLOCATOR: a sanitizer whose allocator replaces glibc's malloc (address,
/// thread or memory), so glibc's arenas and thresholds are not what the program uses.

#if defined(__SANITIZE_ADDRESS__)
#define FROST_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FROST_TEST_UNDER_ASAN 1
#endif
#endif

#if defined(FROST_TEST_UNDER_ASAN) || defined(__SANITIZE_THREAD__)
#define FROST_TEST_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FROST_TEST_SANITIZER_ALLOCATOR 1
#endif
#endif
