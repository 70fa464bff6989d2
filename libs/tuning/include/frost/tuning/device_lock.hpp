#pragma once
/// @file device_lock.hpp
/// @brief The per-device tuning lock of docs/tune.md#dynamic-tuning-in-a-run: dynamic tuning times
/// kernels only while this process holds `<tuning-cache-dir>/device-<uuid>.lock` (flock, one
/// attempt), so two processes sharing a GPU (e.g. two MPI ranks) never time against each other.
#include <memory>
#include <string>

namespace frost::tuning {

/// Takes the lock without waiting: a token that holds it until destroyed, or null (with one
/// logged line) when another process holds it or the file cannot be created.
std::shared_ptr<void> try_tuning_lock(const std::string& cache_dir, const std::string& device_uuid);

} // namespace frost::tuning
