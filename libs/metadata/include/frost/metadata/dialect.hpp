#pragma once
/// @file dialect.hpp
/// @brief Which program's flavour of STAR a metadata file follows, and how frost tells.
#include <optional>
#include <string_view>

namespace frost::meta {

/// @brief The metadata flavours frost reads and writes (docs/formats.md#star-files and #xmipp-metadata).
enum class Dialect {
  Relion30, ///< RELION ≤ 3.0: no `# version` line, no optics block, pixel origins
  Relion31, ///< RELION 3.1 and 4.0: `# version 30001`, optics + particles
  Relion5,  ///< RELION 5: `# version 50001`
  Xmipp     ///< Xmipp `.xmd`: `# XMIPP_STAR_1 *`, labels without `rln`
};

/// @brief "relion-3.0", "relion-3.1", "relion-5" or "xmipp".
std::string_view dialect_name(Dialect dialect) noexcept;
/// @brief The `# version` number a writer puts before each block (0: none).
int default_version(Dialect dialect) noexcept;
/// @brief True for the RELION flavours.
bool is_relion(Dialect dialect) noexcept;
/// @brief The value of `--ometa-format`: "star"/"relion" → Relion31, "xmd"/"xmipp" → Xmipp,
/// and the names of dialect_name().
std::optional<Dialect> parse_dialect(std::string_view name) noexcept;

/// @brief What the reader saw that tells the dialects apart.
struct DialectEvidence {
  bool xmipp_header = false;    ///< first non-blank line is `# XMIPP_STAR_1 ...`
  int version = 0;              ///< number of the first `# version N` line, 0 if none
  bool has_optics_block = false;///< a block named `optics`
  bool has_rln_labels = false;  ///< some label starts with `rln`
  bool has_xmipp_labels = false;///< some label is one of Xmipp's usual ones (image, angleRot...)
};

/// @brief Decision, in order: the Xmipp header → Xmipp; `# version` ≥ 50000 → Relion5, other
/// version lines → Relion31; no version line but an optics block (written by third-party
/// tools) → Relion31; labels starting with `rln` → Relion30; known Xmipp labels and no `rln`
/// → Xmipp; anything else (plain STAR) → Relion30, which writes no version line.
Dialect detect_dialect(const DialectEvidence& evidence) noexcept;

/// @brief True for labels Xmipp programs commonly write (used only for dialect detection).
bool is_common_xmipp_label(std::string_view label) noexcept;

} // namespace frost::meta
