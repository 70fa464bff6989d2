// Single-pass STAR/XMD reader (docs/formats.md#star-syntax and #xmd-syntax). The text is walked line
// by line with plain pointer scans: no regex, no per-value allocation beyond appending the
// token to its column's text buffer.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"

namespace frost::meta {

namespace {

bool is_blank_char(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// True when `s` is `keyword` alone or followed by whitespace (e.g. RELION's "loop_ ").
bool is_keyword(std::string_view s, std::string_view keyword) {
  return starts_with(s, keyword) && (s.size() == keyword.size() || is_blank_char(s[keyword.size()]));
}

/// Number of a `# version N` comment, or 0 when the comment is something else.
int version_of_comment(std::string_view line) {
  std::size_t i = 1; // past '#'
  while (i < line.size() && is_blank_char(line[i])) ++i;
  if (line.substr(i, 7) != "version") return 0;
  i += 7;
  if (i >= line.size() || !is_blank_char(line[i])) return 0;
  while (i < line.size() && is_blank_char(line[i])) ++i;
  int value = 0;
  std::size_t digits = 0;
  for (; i < line.size() && line[i] >= '0' && line[i] <= '9' && digits < 9; ++i, ++digits)
    value = value * 10 + (line[i] - '0');
  while (i < line.size() && is_blank_char(line[i])) ++i;
  return (digits > 0 && i == line.size()) ? value : 0;
}

bool is_xmipp_header(std::string_view line) {
  std::size_t i = 1;
  while (i < line.size() && is_blank_char(line[i])) ++i;
  return line.substr(i, 12) == "XMIPP_STAR_1";
}

class StarParser {
public:
  StarParser(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

  void run(std::vector<Block>& blocks, DialectEvidence& evidence) {
    if (starts_with(text_, "\xEF\xBB\xBF")) pos_ = 3; // UTF-8 byte-order mark
    bool seen_content = false;
    std::string_view line;
    while (next_line(line)) {
      if (line.empty()) {
        if (mode_ == Mode::LoopRows) end_table(blocks); // a blank line ends a table
        continue;
      }
      if (line.front() == '#') {
        if (!seen_content && is_xmipp_header(line)) evidence.xmipp_header = true;
        if (evidence.version == 0) evidence.version = version_of_comment(line);
        seen_content = true;
        continue;
      }
      seen_content = true;
      if (mode_ == Mode::LoopRows && (is_keyword_data(line) || is_keyword(line, "loop_"))) end_table(blocks);
      if (is_keyword_data(line)) {
        start_block(blocks, line);
      } else if (is_keyword(line, "loop_")) {
        start_loop(blocks, line);
      } else if (line.front() == '_') {
        label_line(blocks, line);
      } else {
        data_line(blocks, line);
      }
    }
    if (mode_ == Mode::LoopRows) end_table(blocks);
  }

private:
  enum class Mode { NoBlock, Start, List, LoopHeader, LoopRows, Closed };

  [[noreturn]] void fail(const std::string& problem) const {
    throw_input_error(origin_ + ":" + std::to_string(line_no_), problem);
  }

  /// Next line without its end-of-line characters and leading blanks (CRLF tolerated).
  bool next_line(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const char* begin = text_.data() + pos_;
    const void* nl = std::memchr(begin, '\n', text_.size() - pos_);
    const std::size_t length = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : text_.size() - pos_;
    line_start_ = pos_;
    pos_ += length + 1;
    ++line_no_;
    std::size_t b = 0, e = length;
    while (b < e && is_blank_char(begin[b])) ++b;
    while (e > b && is_blank_char(begin[e - 1])) --e;
    line = std::string_view(begin + b, e - b);
    return true;
  }

  static bool is_keyword_data(std::string_view line) { return starts_with(line, "data_"); }

  /// Splits a line into values: whitespace separated, quoted with ' or " (a quote closes only
  /// when followed by whitespace or the end of the line), '#' at a value start begins a comment.
  void tokenize(std::string_view line) {
    tokens_.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (i < n) {
      while (i < n && is_blank_char(line[i])) ++i;
      if (i >= n || line[i] == '#') break;
      const char c = line[i];
      if (c == '\'' || c == '"') {
        std::size_t j = i + 1;
        while (j < n && !(line[j] == c && (j + 1 == n || is_blank_char(line[j + 1])))) ++j;
        if (j >= n) fail(std::string("unterminated quote (") + c + ") in: " + std::string(line.substr(0, 120)));
        tokens_.push_back(line.substr(i + 1, j - i - 1));
        i = j + 1;
      } else {
        std::size_t j = i;
        while (j < n && !is_blank_char(line[j])) ++j;
        tokens_.push_back(line.substr(i, j - i));
        i = j;
      }
    }
  }

  Block& current(std::vector<Block>& blocks) { return blocks.back(); }

  void start_block(std::vector<Block>& blocks, std::string_view line) {
    tokenize(line);
    if (tokens_.size() != 1) fail("unexpected text after the block name: " + std::string(line));
    blocks.emplace_back(std::string(tokens_[0].substr(5)));
    blocks.back().set_origin(origin_);
    mode_ = Mode::Start;
  }

  void start_loop(std::vector<Block>& blocks, std::string_view line) {
    if (mode_ == Mode::NoBlock) fail("loop_ before the first data_ block");
    Block& block = current(blocks);
    tokenize(line.substr(5));
    if (!tokens_.empty()) fail("unexpected text after loop_: " + std::string(line));
    if (block.column_count() > 0 || mode_ == Mode::LoopHeader || mode_ == Mode::LoopRows || mode_ == Mode::Closed)
      fail("data_" + block.name() + " already holds " + (block.is_list() ? "list values" : "a table") +
           "; frost reads one table or one list per block");
    block.set_list(false);
    mode_ = Mode::LoopHeader;
  }

  void label_line(std::vector<Block>& blocks, std::string_view line) {
    if (mode_ == Mode::NoBlock) fail("label before the first data_ block: " + std::string(line));
    Block& block = current(blocks);
    tokenize(line);
    const std::string label(tokens_[0].substr(1));
    if (label.empty()) fail("empty label '_'");
    if (block.has(label)) fail("label _" + label + " appears twice in data_" + block.name());
    switch (mode_) {
    case Mode::LoopHeader: {
      if (tokens_.size() != 1) fail("unexpected text after label _" + label + " in a loop_ header");
      block.add_column(label).set_source_line(line_no_);
      return;
    }
    case Mode::Start:
    case Mode::List: {
      if (tokens_.size() < 2) fail("label _" + label + " has no value");
      if (tokens_.size() > 2) fail("label _" + label + " has more than one value (quote values with spaces)");
      if (mode_ == Mode::Start) block.set_list(true);
      Column& column = block.add_column(label);
      column.set_text(0, tokens_[1]);
      column.set_source_line(line_no_);
      mode_ = Mode::List;
      return;
    }
    case Mode::LoopRows: fail("label _" + label + " after the data rows of data_" + block.name());
    case Mode::Closed: fail("label _" + label + " after the end of the table in data_" + block.name());
    case Mode::NoBlock: break;
    }
    fail("unexpected label _" + label);
  }

  void data_line(std::vector<Block>& blocks, std::string_view line) {
    if (mode_ == Mode::NoBlock) fail("text before the first data_ block: " + std::string(line.substr(0, 120)));
    Block& block = current(blocks);
    if (mode_ == Mode::Closed)
      fail("values after the end of the table in data_" + block.name() + " (a blank line ends a loop_)");
    if (mode_ != Mode::LoopHeader && mode_ != Mode::LoopRows)
      fail("values outside a loop_ in data_" + block.name() + ": " + std::string(line.substr(0, 120)));
    tokenize(line);
    if (tokens_.empty()) return; // only a comment after leading blanks
    const std::size_t expected = block.column_count();
    if (expected == 0) fail("data row in a loop_ without labels in data_" + block.name());
    // Every row holds one value per label, in Xmipp files too: Xmipp ignores values beyond the
    // labels, but such a row has lost or gained a value somewhere, and which column then holds
    // what is a guess (xmipp/experimental_images.xmd: its psi would be read as 10 and its shiftX
    // as 262.8).
    if (tokens_.size() != expected)
      fail("row has " + std::to_string(tokens_.size()) + " values, data_" + block.name() + " has " +
           std::to_string(expected) + " labels");
    if (mode_ != Mode::LoopRows) table_start_ = line_start_;
    for (std::size_t i = 0; i < expected; ++i) block.column_at(i).push_text(tokens_[i]);
    block.commit_row(line_no_);
    mode_ = Mode::LoopRows;
    if (block.rows() == kRowsBeforeReserving) reserve_rest_of_table(block);
  }

  /// Large tables: after a sample of rows, reserve room for the rest of the file at the
  /// sample's bytes per row, so that columns are not copied again and again while growing.
  void reserve_rest_of_table(Block& block) {
    const double bytes_per_row = double(pos_ - table_start_) / double(block.rows());
    const double remaining = double(text_.size() - std::min(pos_, text_.size()));
    const std::size_t rows = block.rows() + static_cast<std::size_t>(remaining / bytes_per_row) + 1;
    for (std::size_t i = 0; i < block.column_count(); ++i) {
      Column& c = block.column_at(i);
      const double bytes_per_cell = double(c.text_bytes()) / double(block.rows());
      c.reserve(rows, static_cast<std::size_t>(bytes_per_cell * double(rows) * 1.02) + 64);
    }
    reserved_ = true;
  }

  /// The estimate may have been for more rows than the table had.
  void end_table(std::vector<Block>& blocks) {
    mode_ = Mode::Closed;
    if (!reserved_) return;
    Block& block = current(blocks);
    for (std::size_t i = 0; i < block.column_count(); ++i) block.column_at(i).shrink_to_fit();
    reserved_ = false;
  }

  std::string_view text_;
  const std::string& origin_;
  static constexpr std::size_t kRowsBeforeReserving = 4096;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::size_t table_start_ = 0; // offset of the first row of the current table
  bool reserved_ = false;
  std::size_t line_no_ = 0;
  Mode mode_ = Mode::NoBlock;
  std::vector<std::string_view> tokens_;
};

} // namespace

MetadataFile MetadataFile::parse(std::string_view text, const std::string& origin) {
  MetadataFile file;
  file.origin_ = origin;
  DialectEvidence evidence;
  StarParser(text, origin).run(file.blocks_, evidence);
  for (const Block& block : file.blocks_) {
    if (block.name() == "optics") evidence.has_optics_block = true;
    for (const Column& column : block.columns()) {
      if (starts_with(column.label(), "rln")) evidence.has_rln_labels = true;
      if (is_common_xmipp_label(column.label())) evidence.has_xmipp_labels = true;
    }
  }
  file.dialect_ = detect_dialect(evidence);
  file.version_ = evidence.version > 0 ? evidence.version : default_version(file.dialect_);
  return file;
}

namespace {
/// The whole file in one read: metadata files reach 1 GB, so no stream copies.
std::string read_whole_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw_input_error(path, std::string("cannot open for reading (") + std::strerror(errno) + ")");
  struct stat st {};
  std::string text;
  if (::fstat(fileno(f), &st) == 0 && st.st_size > 0) text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = text.empty() ? 0 : std::fread(text.data(), 1, text.size(), f);
  text.resize(got);
  char chunk[65536]; // anything beyond the size stat reported (a pipe, a growing file)
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) text.append(chunk, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw_input_error(path, "read error");
  return text;
}
} // namespace

MetadataFile MetadataFile::read(const std::string& path) { return parse(read_whole_file(path), path); }

} // namespace frost::meta
