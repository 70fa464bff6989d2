#pragma once
/// @file key.hpp
/// @brief The tuning-cache key (docs/tune.md#key): schema | kernel name | kernel version |
/// space signature | device name | compute capability | multiprocessors | memory GiB | driver |
/// CUDA runtime | NVRTC or "aot" | frost major.minor | problem key. The canonical string is
/// authoritative; its FNV-1a 64 hash is stored beside it for indexing.
#include <cstdint>
#include <optional>
#include <string>

#include "frost/tuning/space.hpp"

namespace frost {
struct CudaDeviceInfo;
}

namespace frost::tuning {

/// Version of the key layout and of the record format.
constexpr int kSchemaVersion = 1;

struct KernelId {
  std::string name;
  int version = 0;
  std::uint64_t signature = 0; ///< TuningSpace::signature()
};

/// The device *model*: identical cards share records (the UUID goes into the record only).
struct DeviceModel {
  std::string name;          ///< cudaDeviceProp.name
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  std::int64_t memory_gib = 0; ///< total memory in GiB, rounded down
};
DeviceModel device_model(const CudaDeviceInfo& info);

struct SoftwareStack {
  int driver = 0;            ///< cudaDriverGetVersion, e.g. 12040
  int runtime = 0;           ///< cudaRuntimeGetVersion
  std::string nvrtc = "aot"; ///< NVRTC version, or "aot" when only compiled-in variants are used
  std::string frost;         ///< frost major.minor
};
SoftwareStack software_stack(const CudaDeviceInfo& info, const std::string& nvrtc = "aot");
/// "0.1" for frost 0.1.0.
std::string frost_major_minor();

struct TuningKey {
  KernelId kernel;
  DeviceModel device;
  SoftwareStack software;
  std::string problem; ///< ProblemKey::str()

  /// The canonical string. A '|' in the device name becomes '/'; other fields must not
  /// contain one (frost::Error(Runtime)).
  std::string str() const;
  /// The key of a canonical string (13 fields, schema 1), else nullopt.
  static std::optional<TuningKey> parse(const std::string& text);
};

/// The key of kernel `kernel` with tuning space `space` on the device `info` (model and software
/// stack, AOT variants) for `problem` (ProblemKey::str()).
TuningKey tuning_key(const std::string& kernel, const TuningSpace& space, const CudaDeviceInfo& info,
                     const std::string& problem);

bool same_kernel(const KernelId& a, const KernelId& b);
bool same_model(const DeviceModel& a, const DeviceModel& b);
bool same_software(const SoftwareStack& a, const SoftwareStack& b);

/// FNV-1a 64 of a key string, as 16 hex digits (the record's "hash").
std::string key_hash(const std::string& key);

} // namespace frost::tuning
