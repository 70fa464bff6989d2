#pragma once
/// @file heap_limits.hpp
/// @brief How much freed memory glibc's malloc may keep: the limits every frost program sets at
/// start (docs/conventions.md#host-memory).
#include <cstddef>

namespace frost {

/// Free memory an arena keeps at its top before it gives the rest back (M_TRIM_THRESHOLD).
inline constexpr std::size_t kHeapTrimBytes = std::size_t{4} << 20;
/// Blocks this large or larger are mapped on their own and unmapped when freed (M_MMAP_THRESHOLD);
/// glibc's adaptive threshold would reach it after the first large free anyway.
inline constexpr std::size_t kHeapMapBytes = std::size_t{32} << 20;

/// The arenas a frost process allows: one per CPU thread of the default rule (num_threads()), at
/// least 4.
int heap_arena_limit();

/// Sets M_ARENA_MAX, M_TRIM_THRESHOLD and M_MMAP_THRESHOLD to the values above, each unless its
/// environment variable (MALLOC_ARENA_MAX, MALLOC_TRIM_THRESHOLD_, MALLOC_MMAP_THRESHOLD_) or
/// GLIBC_TUNABLES sets it. glibc fixes the arena limit when the ninth arena is made, so this runs
/// before the process starts threads. A no-op on other C libraries.
void set_heap_limits() noexcept;

/// Gives the free chunks of glibc's arenas back to the system (malloc_trim), as a long-running
/// loop does after each unit of work. Nothing under a sanitizer whose allocator replaces glibc's:
/// its arenas then hold nothing, and glibc sets them up on first use without a lock, so two
/// threads trimming first crashed inside glibc (an AddressSanitizer run of the session loop).
void release_free_heap() noexcept;

} // namespace frost
