#pragma once
/// @file metadata_file.hpp
/// @brief A whole STAR/XMD file: ordered data blocks plus the dialect it was written in.
#include <string>
#include <string_view>
#include <vector>

#include "frost/metadata/block.hpp"
#include "frost/metadata/dialect.hpp"

namespace frost::meta {

/// @brief An ordered list of data blocks read from (or to be written to) one metadata file.
///
/// Reading keeps every block, label and value in file order, so a read-modify-write changes
/// only what the program changed. Writing goes through frost::AtomicFile and uses the
/// dialect the file was read in unless another one is asked for.
class MetadataFile {
public:
  MetadataFile() = default;
  explicit MetadataFile(Dialect dialect) : dialect_(dialect), version_(default_version(dialect)) {}

  /// @brief Reads and parses a file (all blocks). frost::Error(Input) names the file and line.
  static MetadataFile read(const std::string& path);
  /// @brief Parses text already in memory; `origin` names it in messages.
  static MetadataFile parse(std::string_view text, const std::string& origin);

  Dialect dialect() const noexcept { return dialect_; }
  /// @brief Changes the dialect used by default when writing (labels are not renamed: see
  /// xmipp_relion.hpp for that).
  void set_dialect(Dialect dialect) noexcept;
  /// @brief The `# version` number read (0 if none); kept on write when it fits the dialect.
  int version() const noexcept { return version_; }
  const std::string& origin() const noexcept { return origin_; }

  std::vector<Block>& blocks() noexcept { return blocks_; }
  const std::vector<Block>& blocks() const noexcept { return blocks_; }
  std::size_t block_count() const noexcept { return blocks_.size(); }
  /// @brief The first block called `name` ("" = the unnamed `data_` block), or nullptr.
  const Block* find(std::string_view name) const noexcept;
  Block* find(std::string_view name) noexcept;
  /// @brief As find(), but frost::Error(Input) listing the blocks present when absent.
  const Block& block(std::string_view name) const;
  Block& block(std::string_view name);
  /// @brief Appends a block (names need not be unique, as in Xmipp files).
  Block& add_block(std::string name, bool is_list = false);

  /// @brief The file's text in its own dialect, or in `dialect`.
  std::string to_string() const { return to_string(dialect_); }
  std::string to_string(Dialect dialect) const;
  /// @brief Writes the file atomically (RELION writers flush every 100 000 rows, so do we).
  void write(const std::string& path) const { write(path, dialect_); }
  void write(const std::string& path, Dialect dialect) const;

private:
  int version_for(Dialect dialect) const noexcept;

  std::vector<Block> blocks_;
  Dialect dialect_ = Dialect::Relion31;
  int version_ = 30001;
  std::string origin_;
};

/// @brief `block@file` split into its parts (Xmipp's block addressing).
struct BlockSpec {
  std::string block; ///< empty when no block was named
  std::string file;
  bool has_block = false;
};

/// @brief Splits `name@file`. The split happens at the first '@' unless the whole text is an
/// existing file; a leading `@` or a part before '@' that contains '/' means "no block".
BlockSpec split_block_spec(const std::string& spec);

/// @brief Reads the block named in `block@file`, or the first block of `file`. The block
/// keeps its origin for messages; frost::Error(Input) when the file or block is missing.
Block read_block(const std::string& spec);

} // namespace frost::meta
