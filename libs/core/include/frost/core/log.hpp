#pragma once
/// @file log.hpp
/// @brief Verbosity-filtered messages on stderr (stdout stays clean for tables and JSON).
#include <string>

namespace frost {

/// 0 quiet (errors only), 1 normal, 2 detailed. Set once by the program base from `-v`.
void set_verbosity(int level);
int verbosity();
/// Also append every message to this file ("" to stop). Set from `--log`; frost::Error(Input)
/// naming the file when it cannot be opened.
void set_log_file(const std::string& path);
/// The text with control bytes other than newline and tab written as `\xNN`, so a message that
/// quotes a binary file cannot drive the terminal.
std::string printable(const std::string& text);

void log_info(const std::string& message);   ///< shown at verbosity >= 1
void log_detail(const std::string& message); ///< shown at verbosity >= 2
void log_warning(const std::string& message);///< shown at verbosity >= 1, prefixed "warning: "
void log_error(const std::string& message);  ///< always shown, prefixed "error: "

} // namespace frost
