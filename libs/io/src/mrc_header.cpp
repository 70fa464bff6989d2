// Field-by-field MRC header parsing: no struct overlay, so padding and byte order never matter.
#include "frost/io/mrc_header.hpp"

#include <algorithm>
#include <cstring>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"

namespace frost::io {

namespace {

std::uint32_t load_u32(const unsigned char* p, Endian e) {
  if (e == Endian::Little)
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
  return std::uint32_t(p[3]) | std::uint32_t(p[2]) << 8 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[0]) << 24;
}
std::int32_t load_i32(const unsigned char* p, Endian e) {
  const std::uint32_t u = load_u32(p, e);
  std::int32_t v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}
float load_f32(const unsigned char* p, Endian e) {
  const std::uint32_t u = load_u32(p, e);
  float v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

void store_u32(unsigned char* p, std::uint32_t v) {
  p[0] = static_cast<unsigned char>(v);
  p[1] = static_cast<unsigned char>(v >> 8);
  p[2] = static_cast<unsigned char>(v >> 16);
  p[3] = static_cast<unsigned char>(v >> 24);
}
void store_i32(unsigned char* p, std::int32_t v) {
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  store_u32(p, u);
}
void store_f32(unsigned char* p, float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  store_u32(p, u);
}

// A header is plausible in a byte order when nx is a sane size and the mode a
// small number. Unknown small modes still count as plausible so the user later gets "mode 16 is
// not supported" rather than a misleading byte-order error; a byte-swapped small int is >= 2^24.
// ny and nz are checked too: that separates the orders for mode 0 (which reads the same both
// ways) unless all three sizes are multiples of 256.
bool plausible(const unsigned char* header, Endian e) {
  const auto sane = [](std::int32_t n) { return n > 0 && n < (1 << 24); };
  const std::int32_t mode = load_i32(header + 12, e);
  return sane(load_i32(header + 0, e)) && sane(load_i32(header + 4, e)) &&
         sane(load_i32(header + 8, e)) && mode >= 0 && mode < (1 << 16);
}

const char* endian_name(Endian e) { return e == Endian::Little ? "little-endian" : "big-endian"; }

} // namespace

std::string MrcHeader::label(int i) const {
  const auto& l = labels.at(static_cast<std::size_t>(i));
  std::size_t n = 0;
  while (n < l.size() && l[n] != '\0') ++n;
  while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\0')) --n;
  return std::string(l.data(), n);
}

void MrcHeader::set_label(int i, const std::string& text) {
  auto& l = labels.at(static_cast<std::size_t>(i));
  l.fill(' ');
  std::memcpy(l.data(), text.data(), std::min(text.size(), l.size()));
}

bool MrcHeader::has_map_tag() const { return std::memcmp(map.data(), "MAP ", 4) == 0; }

bool endian_from_stamp(const unsigned char* header, Endian* out) {
  const unsigned char* s = header + 212;
  if (s[0] == 0x44 && (s[1] == 0x44 || s[1] == 0x41)) {
    *out = Endian::Little;
    return true;
  }
  if (s[0] == 0x11 && s[1] == 0x11) {
    *out = Endian::Big;
    return true;
  }
  return false;
}

Endian detect_mrc_endian(const unsigned char* header, const std::string& path) {
  Endian stamped;
  if (endian_from_stamp(header, &stamped)) {
    if (plausible(header, stamped)) return stamped;
    const Endian other = stamped == Endian::Little ? Endian::Big : Endian::Little;
    if (plausible(header, other)) {
      log_warning(path + ": the machine stamp says " + endian_name(stamped) +
                  " but the header only makes sense " + endian_name(other) + "; reading it " +
                  endian_name(other));
      return other;
    }
  } else {
    if (plausible(header, Endian::Little)) return Endian::Little;
    if (plausible(header, Endian::Big)) return Endian::Big;
  }
  throw_input_error(path, "not an MRC file: neither byte order gives a plausible header (nx and mode)");
}

MrcHeader parse_mrc_header(const unsigned char* b, const std::string& path) {
  const Endian e = detect_mrc_endian(b, path);
  MrcHeader h;
  h.endian = e;
  h.nx = load_i32(b + 0, e);
  h.ny = load_i32(b + 4, e);
  h.nz = load_i32(b + 8, e);
  h.mode = load_i32(b + 12, e);
  h.nxstart = load_i32(b + 16, e);
  h.nystart = load_i32(b + 20, e);
  h.nzstart = load_i32(b + 24, e);
  h.mx = load_i32(b + 28, e);
  h.my = load_i32(b + 32, e);
  h.mz = load_i32(b + 36, e);
  for (int i = 0; i < 3; ++i) {
    h.cella[i] = load_f32(b + 40 + 4 * i, e);
    h.cellb[i] = load_f32(b + 52 + 4 * i, e);
    h.origin[i] = load_f32(b + 196 + 4 * i, e);
  }
  h.mapc = load_i32(b + 64, e);
  h.mapr = load_i32(b + 68, e);
  h.maps = load_i32(b + 72, e);
  h.dmin = load_f32(b + 76, e);
  h.dmax = load_f32(b + 80, e);
  h.dmean = load_f32(b + 84, e);
  h.ispg = load_i32(b + 88, e);
  h.nsymbt = load_i32(b + 92, e);
  std::memcpy(h.extra1.data(), b + 96, h.extra1.size());
  std::memcpy(h.exttyp.data(), b + 104, 4);
  h.nversion = load_i32(b + 108, e);
  std::memcpy(h.extra2.data(), b + 112, h.extra2.size());
  h.imod_stamp = load_i32(b + 152, e);
  h.imod_flags = load_i32(b + 156, e);
  std::memcpy(h.extra3.data(), b + 160, h.extra3.size());
  std::memcpy(h.map.data(), b + 208, 4);
  std::memcpy(h.machst.data(), b + 212, 4);
  h.rms = load_f32(b + 216, e);
  h.nlabl = load_i32(b + 220, e);
  for (int i = 0; i < 10; ++i) std::memcpy(h.labels[i].data(), b + 224 + 80 * i, 80);
  return h;
}

std::array<unsigned char, kMrcHeaderBytes> serialize_mrc_header(const MrcHeader& h) {
  std::array<unsigned char, kMrcHeaderBytes> out{};
  unsigned char* b = out.data();
  store_i32(b + 0, h.nx);
  store_i32(b + 4, h.ny);
  store_i32(b + 8, h.nz);
  store_i32(b + 12, h.mode);
  store_i32(b + 16, h.nxstart);
  store_i32(b + 20, h.nystart);
  store_i32(b + 24, h.nzstart);
  store_i32(b + 28, h.mx);
  store_i32(b + 32, h.my);
  store_i32(b + 36, h.mz);
  for (int i = 0; i < 3; ++i) {
    store_f32(b + 40 + 4 * i, h.cella[i]);
    store_f32(b + 52 + 4 * i, h.cellb[i]);
    store_f32(b + 196 + 4 * i, h.origin[i]);
  }
  store_i32(b + 64, h.mapc);
  store_i32(b + 68, h.mapr);
  store_i32(b + 72, h.maps);
  store_f32(b + 76, h.dmin);
  store_f32(b + 80, h.dmax);
  store_f32(b + 84, h.dmean);
  store_i32(b + 88, h.ispg);
  store_i32(b + 92, h.nsymbt);
  std::memcpy(b + 96, h.extra1.data(), h.extra1.size());
  std::memcpy(b + 104, h.exttyp.data(), 4);
  store_i32(b + 108, h.nversion);
  std::memcpy(b + 112, h.extra2.data(), h.extra2.size());
  store_i32(b + 152, h.imod_stamp);
  store_i32(b + 156, h.imod_flags);
  std::memcpy(b + 160, h.extra3.data(), h.extra3.size());
  std::memcpy(b + 208, h.map.data(), 4);
  const unsigned char stamp[4] = {0x44, 0x44, 0x00, 0x00};
  std::memcpy(b + 212, stamp, 4);
  store_f32(b + 216, h.rms);
  store_i32(b + 220, h.nlabl);
  for (int i = 0; i < 10; ++i) std::memcpy(b + 224 + 80 * i, h.labels[i].data(), 80);
  return out;
}

} // namespace frost::io
