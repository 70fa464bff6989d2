#include "frost/test/log_capture.hpp"

#include <fstream>
#include <sstream>

#include "frost/core/log.hpp"

namespace frost::test {

LogCapture::LogCapture(const std::string& path) : path_(path) {
  std::ofstream(path_, std::ios::trunc).flush();
  set_log_file(path_);
}

LogCapture::~LogCapture() { set_log_file(""); }

std::string LogCapture::text() const { return slurp(path_); }

int LogCapture::warnings() const {
  std::istringstream in(text());
  std::string line;
  int n = 0;
  while (std::getline(in, line))
    if (line.rfind("warning: ", 0) == 0) ++n;
  return n;
}

void append_raw(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::app | std::ios::binary) << text;
}

} // namespace frost::test
