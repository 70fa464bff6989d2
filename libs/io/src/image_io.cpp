// Format dispatch by extension; the readers themselves know nothing about each other.
#include "frost/io/image_io.hpp"

#include <mutex>
#include <set>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/eman_hdf_reader.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/io/spider.hpp"
#include "frost/io/tiff_reader.hpp"

namespace frost::io {

namespace {

std::unique_ptr<ImageSource> open_ref(const ImageRef& ref, const ReadOptions& options) {
  // EER is read here with its neutral defaults (one item per raw frame, sensor grid); movie
  // programs open EerReader themselves to choose fractions and upsampling.
  if (ref.type.empty() && file_extension(ref.path) == "eer") return std::make_unique<EerReader>(ref.path);
  switch (format_of(ref)) {
  case FileFormat::Mrc:
    return std::make_unique<MrcReader>(ref.type.empty() ? ref.path : ref.path + ":" + ref.type, options);
  case FileFormat::Tiff: return std::make_unique<TiffReader>(ref.path, options);
  case FileFormat::EmanHdf: return std::make_unique<EmanHdfReader>(ref.path);
  case FileFormat::Spider: return open_spider(ref.path);
  }
  throw_input_error(ref.path, "unknown image format");
}

ImageRef file_ref(const std::string& path) {
  ImageRef ref = parse_image_ref(path);
  if (ref.has_index())
    throw_input_error(ref.path, "a file name is expected here, not an image address (" + path + ")");
  return ref;
}

ReadOptions expecting(ReadOptions options, Expect e) {
  if (options.expect == Expect::Auto) options.expect = e;
  return options;
}

// RELION refuses N@file.mrc; frost reads it but says so, once per file so that reading
// thousands of particles does not flood the log.
void warn_mrc_stack_name(const ImageRef& ref, const ImageInfo& info) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  const std::string ext = file_extension(ref.path);
  if (info.format != FileFormat::Mrc || !ref.type.empty() || ext == "mrcs" || ext == "st" ||
      info.content != Content::Stack)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  if (warned.insert(ref.path).second)
    log_warning(ref.path + ": read as an image stack although the name does not end in .mrcs (RELION would refuse it)");
}

} // namespace

std::unique_ptr<ImageSource> open_image_source(const std::string& path, const ReadOptions& options) {
  return open_ref(file_ref(path), options);
}

LoadedImage read_image(const std::string& address, const ReadOptions& options) {
  const ImageRef ref = parse_image_ref(address);
  auto source = open_ref(ref, ref.has_index() ? expecting(options, Expect::Stack) : options);
  LoadedImage out;
  out.info = source->info();
  index_t index = 0;
  if (ref.has_index()) {
    warn_mrc_stack_name(ref, out.info);
    index = ref.index;
  } else if (source->count() != 1) {
    throw_input_error(ref.path, "holds " + std::to_string(source->count()) + " items; address one as N@" + ref.path);
  }
  out.image = source->read(index);
  return out;
}

LoadedImage read_stack(const std::string& path, const ReadOptions& options) {
  auto source = open_ref(file_ref(path), expecting(options, Expect::Stack));
  return {source->read_all(), source->info()};
}

LoadedImage read_volume(const std::string& path, const ReadOptions& options) {
  auto source = open_ref(file_ref(path), expecting(options, Expect::Volume));
  if (source->count() != 1)
    throw_input_error(source->info().path, "holds a " + std::string(to_string(source->info().content)) + " of " +
                                               std::to_string(source->count()) + " items, not a single volume");
  return {source->read(0), source->info()};
}

index_t image_count(const std::string& path, const ReadOptions& options) {
  return open_ref(file_ref(path), expecting(options, Expect::Stack))->count();
}

ImageInfo read_info(const std::string& path, const ReadOptions& options) {
  return open_ref(file_ref(path), options)->info();
}

void write_image(const std::string& path, View<const float> data, const MrcWriteOptions& options) {
  const ImageRef ref = file_ref(path);
  const FileFormat format = format_of(ref);
  const std::string kind = ref.type.empty() ? file_extension(ref.path) : ref.type;
  if (format == FileFormat::Spider && (kind == "stk" || kind == "spi")) {
    // Always a stack of float32 images: the MRC options (mode, pixel size, origin, start, label)
    // have no place in what frost writes to a SPIDER header and are ignored.
    if (options.content && (*options.content == Content::Volume || *options.content == Content::VolumeStack))
      throw_input_error(ref.path, "SPIDER output holds 2-D images only; write volumes as MRC");
    write_spider_stack(ref.path, data);
    return;
  }
  if (format != FileFormat::Mrc)
    throw_input_error(ref.path, "frost writes images as MRC (.mrc, .mrcs, .map, .st) or SPIDER stacks (.stk, .spi)");
  MrcWriteOptions o = options;
  if ((ref.type == "mrcs" || ref.type == "st") && !o.content) o.content = Content::Stack;
  write_mrc(ref.path, data, o);
}

} // namespace frost::io
