// EMAN2 .hdf stacks through the HDF5 C API. The Debian/Ubuntu HDF5 builds are not thread-safe,
// so every HDF5 call of this file runs under one process-wide mutex; automatic printing of the
// HDF5 error stack is switched off meanwhile so failures surface as frost errors only.
// libhdf5 1.10 crashes (null writes, runaway allocation) on some corrupt files (found by
// tests/fuzz/fuzz_eman_hdf.cpp); so a file is first opened, described and its first image read
// in a forked child, and only a file the child read cleanly is opened in this process.
#include "frost/io/eman_hdf_reader.hpp"

#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "frost/core/error.hpp"

namespace frost::io {

namespace {

std::mutex& hdf5_mutex() {
  static std::mutex m;
  return m;
}

/// Holds the HDF5 lock and silences HDF5's own error printing for the guard's lifetime.
class Hdf5Guard {
public:
  Hdf5Guard() : lock_(hdf5_mutex()) {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~Hdf5Guard() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  Hdf5Guard(const Hdf5Guard&) = delete;
  Hdf5Guard& operator=(const Hdf5Guard&) = delete;

private:
  std::lock_guard<std::mutex> lock_;
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

/// An HDF5 identifier closed by the matching H5?close on scope exit.
class Id {
public:
  Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Id() {
    if (id_ >= 0) close_(id_);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

bool link_exists(hid_t where, const char* name) { return H5Lexists(where, name, H5P_DEFAULT) > 0; }

std::string image_name(index_t i) { return "/MDF/images/" + std::to_string(i) + "/image"; }

/// Dataset extent as x, y, z (HDF5 lists the slowest dimension first).
bool dataset_shape(hid_t dataset, Shape* shape) {
  Id space(H5Dget_space(dataset), H5Sclose);
  if (!space.ok()) return false;
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 2 && rank != 3) return false;
  hsize_t dims[3] = {1, 1, 1};
  if (H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0) return false;
  for (int d = 0; d < rank; ++d)
    if (dims[d] == 0 || dims[d] > (hsize_t(1) << 20)) return false; // empty, or beyond any detector
  if (rank == 2) *shape = Shape{index_t(dims[1]), index_t(dims[0]), 1, 1};
  else *shape = Shape{index_t(dims[2]), index_t(dims[1]), index_t(dims[0]), 1};
  return true;
}

SampleType sample_type_of(hid_t dataset) {
  Id type(H5Dget_type(dataset), H5Tclose);
  const std::size_t size = H5Tget_size(type.get());
  if (H5Tget_class(type.get()) == H5T_FLOAT) return size == 2 ? SampleType::Float16 : SampleType::Float32;
  const bool is_signed = H5Tget_sign(type.get()) == H5T_SGN_2;
  if (size == 1) return is_signed ? SampleType::Int8 : SampleType::UInt8;
  if (size == 2) return is_signed ? SampleType::Int16 : SampleType::UInt16;
  return is_signed ? SampleType::Int32 : SampleType::UInt32;
}

/// Reads a numeric scalar attribute of `object` into `value`; false when absent or not numeric.
bool read_number(hid_t object, const char* name, double* value) {
  if (H5Aexists(object, name) <= 0) return false;
  Id attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (!attr.ok()) return false;
  Id type(H5Aget_type(attr.get()), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) return false;
  return H5Aread(attr.get(), H5T_NATIVE_DOUBLE, value) >= 0;
}

} // namespace

struct EmanHdfReader::Impl {
  ImageInfo info;
  hid_t file = -1;
};

bool hdf5_supported() { return true; }

namespace {

/// Opens `path` and describes it into `info` (the whole HDF5 side of the constructor); returns
/// the open file, or throws frost::Error(Input).
hid_t open_and_describe(const std::string& path, ImageInfo& info) {
  Hdf5Guard guard;
  if (H5Fis_hdf5(path.c_str()) <= 0) throw_input_error(path, "not an HDF5 file");
  hid_t file_id = -1;
  // Strong close: closing the file closes whatever HDF5 still holds open in it, also after a
  // failure half-way through a corrupt file (libhdf5 otherwise keeps it until exit).
  {
    Id access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (access.ok()) H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG);
    file_id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.ok() ? access.get() : H5P_DEFAULT);
  }
  if (file_id < 0) throw_input_error(path, "cannot open as HDF5");
  const hid_t file = file_id;
  try {
    if (!link_exists(file, "/MDF") || !link_exists(file, "/MDF/images"))
      throw_input_error(path, "not an EMAN2 image file: there is no /MDF/images group");
    Id group(H5Gopen2(file, "/MDF/images", H5P_DEFAULT), H5Gclose);
    H5G_info_t group_info{};
    if (!group.ok() || H5Gget_info(group.get(), &group_info) < 0)
      throw_input_error(path, "not an EMAN2 image file: /MDF/images is not a group");

    // Images are the members named 0, 1, ..., n-1 (EMAN2 may add other members; skip them).
    std::vector<index_t> numbers;
    for (hsize_t i = 0; i < group_info.nlinks; ++i) {
      char name[64] = {};
      if (H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0) continue;
      char* end = nullptr;
      const long long v = std::strtoll(name, &end, 10);
      if (end != name && *end == '\0' && v >= 0) numbers.push_back(v);
    }
    std::sort(numbers.begin(), numbers.end());
    if (numbers.empty()) throw_input_error(path, "EMAN2 file holds no images under /MDF/images");
    for (std::size_t i = 0; i < numbers.size(); ++i)
      if (numbers[i] != index_t(i))
        throw_input_error(path, "EMAN2 image " + std::to_string(i) + " is missing under /MDF/images");

    if (!link_exists(file, "/MDF/images/0") || !link_exists(file, image_name(0).c_str()))
      throw_input_error(path, "not an EMAN2 image file: no dataset " + image_name(0));
    Id dataset(H5Dopen2(file, image_name(0).c_str(), H5P_DEFAULT), H5Dclose);
    Shape shape;
    if (!dataset.ok() || !dataset_shape(dataset.get(), &shape))
      throw_input_error(path, image_name(0) + " is not a non-empty 2-D or 3-D dataset");
    {
      Id type(H5Dget_type(dataset.get()), H5Tclose);
      const H5T_class_t cls = H5Tget_class(type.get());
      if (cls != H5T_INTEGER && cls != H5T_FLOAT) throw_input_error(path, image_name(0) + " does not hold numbers");
    }
    info.sample = sample_type_of(dataset.get());
    shape.n = index_t(numbers.size());
    info.shape = shape;
    info.content = shape.z > 1 ? (shape.n > 1 ? Content::VolumeStack : Content::Volume)
                               : (shape.n > 1 ? Content::Stack : Content::Image);

    Id first(H5Gopen2(file, "/MDF/images/0", H5P_DEFAULT), H5Gclose);
    const char* axes[3] = {"EMAN.apix_x", "EMAN.apix_y", "EMAN.apix_z"};
    for (int a = 0; a < 3; ++a) {
      double v = 0;
      if (read_number(first.get(), axes[a], &v) || read_number(dataset.get(), axes[a], &v))
        info.pixel_size[a] = v > 0 ? v : 0;
    }
  } catch (...) {
    H5Fclose(file);
    throw;
  }
  return file;
}

/// Largest image 0 the probe reads: 64 Mi pixels (an 8k x 8k micrograph).
constexpr index_t kProbeReadPixels = index_t(1) << 26;

/// Runs `open_and_describe` and reads image 0 in a forked child, so that a crash of libhdf5 on
/// a corrupt file becomes an input error here. The child only calls HDF5 and _exit()s.
void probe_in_child(const std::string& path) {
  std::unique_lock<std::mutex> hdf5_lock(hdf5_mutex()); // no HDF5 call is half-way at fork
  int verdict[2];
  if (::pipe(verdict) != 0) return; // cannot probe: open in-process, as before
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(verdict[0]);
    ::close(verdict[1]);
    return;
  }
  if (child == 0) {
    ::close(verdict[0]);
    ::alarm(60);
    hdf5_lock.release(); // the child's copy of the mutex is held by this (its only) thread
    hdf5_mutex().unlock();
    // A corrupt header may make libhdf5 allocate without bound: the child gets 4 GiB more
    // address space than it has, so such a file fails here instead of swapping the machine.
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
      unsigned long pages = 0;
      if (std::fscanf(statm, "%lu", &pages) == 1) {
        const rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t(4) << 30);
        const struct rlimit rl{limit, limit};
        ::setrlimit(RLIMIT_AS, &rl);
      }
      std::fclose(statm);
    }
    std::string message;
    int code = 0;
    try {
      ImageInfo info;
      const hid_t file = open_and_describe(path, info);
      // Image 0 is read when it is of a size images have (a corrupt extent may claim terabytes).
      if (info.shape.pixels_per_item() <= kProbeReadPixels) {
        std::vector<float> item(std::size_t(info.shape.pixels_per_item()));
        Hdf5Guard guard;
        Id dataset(H5Dopen2(file, image_name(0).c_str(), H5P_DEFAULT), H5Dclose);
        if (!dataset.ok() || H5Dread(dataset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, item.data()) < 0)
          throw_input_error(path, "cannot read dataset " + image_name(0) + " as numbers");
      }
    } catch (const std::exception& e) {
      message = e.what(); // frost::Error names the file and the problem; others say what failed
      code = 3;
    } catch (...) {
      message = "corrupt HDF5 file: reading it failed";
      code = 3;
    }
    if (!message.empty()) {
      ssize_t left = static_cast<ssize_t>(message.size());
      const char* at = message.data();
      while (left > 0) {
        const ssize_t n = ::write(verdict[1], at, static_cast<std::size_t>(left));
        if (n <= 0) break;
        at += n, left -= n;
      }
    }
    ::_exit(code);
  }
  ::close(verdict[1]);
  std::string message;
  char buffer[512];
  for (;;) {
    const ssize_t n = ::read(verdict[0], buffer, sizeof buffer);
    if (n > 0) message.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(verdict[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw_input_error(path, std::string("corrupt HDF5 file: the HDF5 library crashed reading it (signal ") +
                                std::to_string(WTERMSIG(status)) + ")");
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
    // The child's verdict stands: reopening here would repeat whatever made it fail.
    const std::string prefix = path + ": ";
    if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
    throw_input_error(path, message);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    throw_input_error(path, "corrupt HDF5 file: the HDF5 library failed reading it (exit status " +
                                std::to_string(WEXITSTATUS(status)) + ")");
}

} // namespace

EmanHdfReader::EmanHdfReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  ImageInfo& info = impl_->info;
  info.path = path;
  info.format = FileFormat::EmanHdf;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw_input_error(path, "cannot open for reading (no such file)");
  probe_in_child(path);
  impl_->file = open_and_describe(path, info);
}

EmanHdfReader::~EmanHdfReader() {
  if (impl_ && impl_->file >= 0) {
    Hdf5Guard guard;
    H5Fclose(impl_->file);
  }
}

const ImageInfo& EmanHdfReader::info() const { return impl_->info; }

void EmanHdfReader::read(index_t index, float* out) const {
  check_index(index);
  const ImageInfo& info = impl_->info;
  const std::string name = image_name(index);
  Hdf5Guard guard;
  Id dataset(H5Dopen2(impl_->file, name.c_str(), H5P_DEFAULT), H5Dclose);
  Shape shape;
  if (!dataset.ok() || !dataset_shape(dataset.get(), &shape))
    throw_input_error(info.path, "cannot open dataset " + name);
  if (shape != info.shape.item())
    throw_input_error(info.path, name + " is " + to_string(shape) + " but image 0 is " + to_string(info.shape.item()));
  if (H5Dread(dataset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
    throw_input_error(info.path, "cannot read dataset " + name + " as numbers");
}

} // namespace frost::io
