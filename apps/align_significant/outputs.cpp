#include "outputs.hpp"

#include <cmath>
#include <cstdio>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/spider.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/xmipp_relion.hpp"

namespace frost::app {

namespace {

/// Values that reach the files must be numbers: a NaN or Inf here means the computation went
/// wrong, and a table with it would mislead every later step.
void check_written(double value, const char* label, const ImageTable& images, const align::Assignment& a,
                   std::int64_t ref_id) {
  if (std::isfinite(value)) return;
  throw Error(ExitCode::Runtime, "non-finite " + std::string(label) + " (" + std::to_string(value) + ") for image " +
                                     images.images[a.image] + " (row " + std::to_string(a.image + 1) + " of " +
                                     images.path + ") and reference " + std::to_string(ref_id) +
                                     ": nothing was written");
}

} // namespace

meta::Block result_block(const ImageTable& images, const ReferenceInfo& refs,
                         const std::vector<align::Assignment>& rows, const std::vector<align::PairResult>& results,
                         const std::string& out_path) {
  const meta::Block& in = images.rows;
  const std::size_t n_img = in.rows();
  meta::Block out("");
  out.add_columns_from(in);
  const bool has_index = in.has("imageIndex");
  for (const align::Assignment& a : rows) {
    const std::size_t row = out.append_row_from(in, a.image);
    const align::PairResult& res = results[a.reference * n_img + a.image];
    const align::PoseParameters p = align::pose_parameters(res.pose);
    const geom::EulerAngles& ref = refs.angles[a.reference];
    const std::int64_t ref_id = refs.ids[a.reference];
    check_written(p.psi, "anglePsi", images, a, ref_id);
    check_written(p.shift_x, "shiftX", images, a, ref_id);
    check_written(p.shift_y, "shiftY", images, a, ref_id);
    check_written(a.weight, "weight", images, a, ref_id);
    check_written(a.cc, "corrIdx", images, a, ref_id);
    check_written(a.max_vote, "maxCC", images, a, ref_id);
    // Relative paths resolve from the output's own folder (docs/align_significant.md#image-paths-in-the-outputs).
    out.set_string(row, "image", meta::location_for_metadata(images.images[a.image], out_path));
    if (images.pixel_size > 0) out.set_double(row, "samplingRate", images.pixel_size);
    out.set_int(row, "enabled", 1);
    out.set_double(row, "angleRot", ref.rot);
    out.set_double(row, "angleTilt", ref.tilt);
    out.set_double(row, "anglePsi", geom::wrap_angle_deg(double(p.psi) + ref.psi)); // psi_ref added (quirk 12)
    out.set_double(row, "shiftX", p.shift_x);
    out.set_double(row, "shiftY", p.shift_y);
    out.set_int(row, "flip", res.flip > 0.5f ? 1 : 0);
    out.set_int(row, "ref", ref_id);
    if (!has_index) out.set_int(row, "imageIndex", static_cast<std::int64_t>(a.image + 1));
    out.set_double(row, "weight", a.weight);
    out.set_double(row, "weightSignificant", a.weight);
    out.set_double(row, "maxCC", a.max_vote);
    out.set_double(row, "corrIdx", a.cc);
  }
  if (rows.empty()) // an empty result still names the labels, so readers see a valid table
    for (const char* label : {"enabled", "angleRot", "angleTilt", "anglePsi", "shiftX", "shiftY", "flip", "ref",
                              "imageIndex", "weight", "weightSignificant", "maxCC", "corrIdx"})
      out.ensure_column(label, meta::Column::Kind::Double);
  return out;
}

void write_results(const meta::Block& block, const std::string& xmd_path, const std::string& star_path,
                   const ImageTable& images, double pixel_size, int box) {
  meta::MetadataFile xmd(meta::Dialect::Xmipp);
  xmd.blocks().push_back(block);
  xmd.write(xmd_path);

  meta::MetadataFile star(meta::Dialect::Relion31);
  meta::Block particles = meta::xmipp_to_relion(block, pixel_size);
  particles.set_name("particles");
  // The pixel size is stated once, in data_optics, so that no row can contradict it.
  if (particles.has("rlnImagePixelSize")) particles.remove_column("rlnImagePixelSize");
  if (images.optics) { // the input's optics groups, with the pixel size and box of this run
    meta::Block optics = *images.optics;
    optics.set_name("optics");
    optics.set_column("rlnImagePixelSize", std::vector<double>(optics.rows(), pixel_size));
    optics.set_column("rlnImageSize", std::vector<std::int64_t>(optics.rows(), box));
    star.blocks().push_back(std::move(optics));
    if (!particles.has("rlnOpticsGroup") && particles.rows() > 0)
      particles.set_column("rlnOpticsGroup", std::vector<std::int64_t>(particles.rows(), 1));
  } else {
    meta::Block& optics = star.add_block("optics");
    optics.set_column("rlnOpticsGroup", std::vector<std::int64_t>{1});
    optics.set_column("rlnOpticsGroupName", std::vector<std::string>{"opticsGroup1"});
    optics.set_column("rlnImagePixelSize", std::vector<double>{pixel_size});
    optics.set_column("rlnImageSize", std::vector<std::int64_t>{box});
    optics.set_column("rlnImageDimensionality", std::vector<std::int64_t>{2});
    particles.set_column("rlnOpticsGroup", std::vector<std::int64_t>(particles.rows(), 1));
  }
  star.blocks().push_back(std::move(particles));
  star.write(star_path);
}

void write_updated_references(const std::string& base, const align::ClassAverages& classes, const ReferenceInfo& refs,
                              const meta::Block& block, const std::string& block_path,
                              const std::vector<align::Assignment>& rows) {
  const std::string stk = base + ".stk", xmd_path = base + ".xmd";
  io::write_spider_stack(stk, classes.averages.cview());
  meta::MetadataFile xmd(meta::Dialect::Xmipp);
  meta::Block& summary = xmd.add_block("classes");
  const std::size_t n_ref = classes.counts.size();
  std::vector<std::int64_t> ids(n_ref), counts(n_ref);
  std::vector<std::string> images(n_ref);
  for (std::size_t r = 0; r < n_ref; ++r) {
    ids[r] = refs.ids[r];
    counts[r] = static_cast<std::int64_t>(classes.counts[r]);
    images[r] = meta::location_for_metadata(io::make_image_address(static_cast<index_t>(r), stk), xmd_path);
  }
  summary.set_column("ref", ids);
  summary.set_column("image", images);
  summary.set_column("classCount", counts);
  std::vector<std::vector<std::size_t>> by_ref(n_ref);
  for (std::size_t k = 0; k < rows.size(); ++k) by_ref[rows[k].reference].push_back(k);
  for (std::size_t r = 0; r < n_ref; ++r) {
    if (by_ref[r].empty()) continue;
    char name[40];
    std::snprintf(name, sizeof name, "class%06lld_images", static_cast<long long>(refs.ids[r]));
    meta::Block members = block;
    members.keep_rows(by_ref[r]);
    if (members.has("maxCC")) members.remove_column("maxCC");
    if (members.has("image"))
      for (std::size_t k = 0; k < members.rows(); ++k)
        members.set_string(k, "image", meta::rebase_location(members.get_string("image", k), block_path, xmd_path));
    members.set_name(name);
    xmd.blocks().push_back(std::move(members));
  }
  xmd.write(xmd_path);
}

void write_cc_matrix(const std::string& path, const std::vector<float>& cc) {
  AtomicFile f(path);
  f.write(cc.data(), cc.size() * sizeof(float));
  f.commit();
}

} // namespace frost::app
