#include "outputs.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/core/finite.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/picture/figures.hpp"
#include "frost/picture/png.hpp"

namespace frost::app {

std::string output_root(const std::string& map_path) {
  for (const char* ext : {".mrc", ".map", ".MRC", ".MAP"}) {
    const std::string e(ext);
    if (map_path.size() > e.size() && map_path.compare(map_path.size() - e.size(), e.size(), e) == 0)
      return map_path.substr(0, map_path.size() - e.size());
  }
  return map_path;
}

void require_finite(const Image<float>& volume, const std::string& what, const std::string& path) {
  const index_t bad = find_non_finite(volume.cview()).count;
  if (bad > 0)
    throw Error(ExitCode::Runtime, what + " (" + path + ") has " + std::to_string(bad) + " non-finite voxels of " +
                                       std::to_string(volume.size()) + " after the reconstruction; not written");
}

void write_map(const std::string& path, const Image<float>& volume, double pixel_size, const std::string& label,
               const std::string& what) {
  require_finite(volume, what, path);
  io::MrcWriteOptions o;
  o.mode = io::MrcMode::Float32;
  o.content = io::Content::Volume;
  o.pixel_size = pixel_size;
  o.origin_A = {0, 0, 0};
  o.label = label;
  io::write_image(path, volume.cview(), o);
}

namespace {
double resolution_of(const recon::FscCurve& fsc, std::size_t s) {
  return s == 0 ? std::numeric_limits<double>::infinity() : 1.0 / fsc.frequency(static_cast<index_t>(s));
}
} // namespace

void write_fsc_star(const std::string& path, const recon::FscCurve& fsc) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  meta::Block& b = file.add_block("fsc");
  std::vector<std::int64_t> index;
  std::vector<double> freq, res, value;
  for (std::size_t s = 0; s < fsc.fsc.size(); ++s) {
    index.push_back(static_cast<std::int64_t>(s));
    freq.push_back(fsc.frequency(static_cast<index_t>(s)));
    res.push_back(s == 0 ? 999.0 : resolution_of(fsc, s)); // RELION writes 999 for the DC shell
    value.push_back(fsc.fsc[s]);
  }
  b.set_column("rlnSpectralIndex", index);
  b.set_column("rlnResolution", freq);
  b.set_column("rlnAngstromResolution", res);
  b.set_column("rlnFourierShellCorrelation", value);
  file.write(path);
}

void write_fsc_text(const std::string& path, const recon::FscCurve& fsc, const std::string& what) {
  std::ostringstream os;
  char line[160];
  os << "# FSC " << what << "; resolution at FSC 0.143: " << fsc.resolution_0143()
     << " A, at 0.5: " << fsc.resolution_05() << " A\n";
  os << "# shell  frequency[1/A]  resolution[A]  FSC\n";
  for (std::size_t s = 0; s < fsc.fsc.size(); ++s) {
    std::snprintf(line, sizeof line, "%6zu  %14.6f  %13.3f  %9.6f\n", s, fsc.frequency(static_cast<index_t>(s)),
                  resolution_of(fsc, s), fsc.fsc[s]);
    os << line;
  }
  write_text_file_atomic(path, os.str());
}

void write_sections_png(const std::string& path, const Image<float>& volume) {
  picture::write_png(path, picture::central_sections(volume.cview()));
}

void write_fsc_png(const std::string& path, const recon::FscCurve& fsc) {
  picture::FscFigure f;
  for (std::size_t s = 0; s < fsc.fsc.size(); ++s) f.frequency.push_back(fsc.frequency(static_cast<index_t>(s)));
  f.fsc = fsc.fsc;
  picture::write_png(path, picture::fsc_figure(f));
}

} // namespace frost::app
