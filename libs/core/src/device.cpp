#include "frost/core/device.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "frost/core/error.hpp"

namespace frost {

DeviceSelection DeviceSelection::parse(const std::string& text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  DeviceSelection sel;
  if (t == "cpu") return sel;
  if (t == "auto") { // every visible GPU, else the CPU
    const int n = cuda_device_count();
    for (int i = 0; i < n; ++i) sel.gpus.push_back(i);
    sel.cpu = n == 0;
    return sel;
  }
  sel.cpu = false;
  if (t == "cuda" || t == "gpu") {
    sel.gpus = {0};
    return sel;
  }
  std::replace(t.begin(), t.end(), ',', ' ');
  std::istringstream in(t);
  std::string item;
  while (in >> item) {
    if (item.empty() || !std::all_of(item.begin(), item.end(), ::isdigit))
      throw_usage_error("--device: expected 'cpu', 'auto' or GPU ids such as 0 or 0,1 but got '" + text + "'");
    sel.gpus.push_back(std::stoi(item));
  }
  if (sel.gpus.empty())
    throw_usage_error("--device: expected 'cpu', 'auto' or GPU ids such as 0 or 0,1 but got '" + text + "'");
  return sel;
}

std::string DeviceSelection::to_string() const {
  if (cpu) return "cpu";
  std::string s;
  for (std::size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
  return s;
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "unknown-host";
  return buf;
}

int DeviceSelection::gpu_for_rank(int rank) const {
  FROST_EXPECTS(!cpu && !gpus.empty(), "gpu_for_rank on a CPU selection");
  return gpus[static_cast<std::size_t>(rank) % gpus.size()];
}

void require_devices(const DeviceSelection& sel) {
  if (sel.cpu) return;
  if (!cuda_compiled())
    FROST_THROW(ExitCode::Device, "--device " + sel.to_string() +
                                      ": this frost was built without CUDA; use --device cpu");
  const int count = cuda_device_count();
  for (int id : sel.gpus)
    if (id < 0 || id >= count)
      FROST_THROW(ExitCode::Device, "--device " + sel.to_string() + ": GPU " + std::to_string(id) +
                                        " does not exist (" + std::to_string(count) + " visible)");
}

} // namespace frost
