#include "frost/metadata/metadata_file.hpp"

#include <sys/stat.h>

#include "frost/core/error.hpp"

namespace frost::meta {

void MetadataFile::set_dialect(Dialect dialect) noexcept {
  dialect_ = dialect;
  version_ = version_for(dialect);
}

const Block* MetadataFile::find(std::string_view name) const noexcept {
  for (const Block& b : blocks_)
    if (b.name() == name) return &b;
  return nullptr;
}

Block* MetadataFile::find(std::string_view name) noexcept {
  for (Block& b : blocks_)
    if (b.name() == name) return &b;
  return nullptr;
}

const Block& MetadataFile::block(std::string_view name) const {
  if (const Block* b = find(name)) return *b;
  std::string present;
  for (const Block& b : blocks_) present += (present.empty() ? "data_" : ", data_") + b.name();
  throw_input_error(origin_.empty() ? std::string("<memory>") : origin_,
                    "no block data_" + std::string(name) + " (blocks: " +
                        (present.empty() ? std::string("none") : present) + ")");
}

Block& MetadataFile::block(std::string_view name) {
  return const_cast<Block&>(static_cast<const MetadataFile*>(this)->block(name));
}

Block& MetadataFile::add_block(std::string name, bool is_list) {
  blocks_.emplace_back(std::move(name), is_list);
  blocks_.back().set_origin(origin_);
  return blocks_.back();
}

BlockSpec split_block_spec(const std::string& spec) {
  BlockSpec out;
  out.file = spec;
  const std::size_t at = spec.find('@');
  if (at == std::string::npos || at == 0) return out;
  struct stat st {};
  if (::stat(spec.c_str(), &st) == 0) return out; // an existing file whose name has '@'
  const std::string before = spec.substr(0, at);
  if (before.find('/') != std::string::npos) return out;
  out.block = before;
  out.file = spec.substr(at + 1);
  out.has_block = true;
  return out;
}

Block read_block(const std::string& spec) {
  const BlockSpec parts = split_block_spec(spec);
  MetadataFile file = MetadataFile::read(parts.file);
  if (parts.has_block) return std::move(file.block(parts.block));
  if (file.blocks().empty()) throw_input_error(parts.file, "no data_ block in the file");
  return std::move(file.blocks().front());
}

} // namespace frost::meta
