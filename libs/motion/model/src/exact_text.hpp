#pragma once
// Writing numbers into metadata blocks as shortest exact decimals (Text cells), so that what
// this library writes reads back bit-identical; the metadata writer would otherwise print
// doubles with RELION's %12.6f (five decimals for negatives).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frost/metadata/block.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::motion::detail {

inline std::vector<std::string> exact_texts(const std::vector<double>& values) {
  std::vector<std::string> out;
  out.reserve(values.size());
  for (double v : values) out.push_back(meta::format_shortest(v == 0.0 ? 0.0 : v)); // no "-0"
  return out;
}

/// Sets key `label` of a list block to `text`, replacing a numeric column so the text is kept.
inline void set_key_text(meta::Block& block, std::string_view label, const std::string& text) {
  if (const meta::Column* c = block.find(label); c != nullptr && c->kind() != meta::Column::Kind::Text)
    block.remove_column(label);
  if (block.rows() == 0) block.add_row();
  block.set_string(0, label, text);
}

inline void set_key(meta::Block& block, std::string_view label, double value) {
  set_key_text(block, label, meta::format_shortest(value == 0.0 ? 0.0 : value));
}

inline void set_key_int(meta::Block& block, std::string_view label, std::int64_t value) {
  if (const meta::Column* c = block.find(label); c != nullptr && c->kind() == meta::Column::Kind::Text)
    block.remove_column(label);
  if (block.rows() == 0) block.add_row();
  block.set_int(0, label, value);
}

} // namespace frost::motion::detail
