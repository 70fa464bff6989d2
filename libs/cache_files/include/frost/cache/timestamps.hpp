#pragma once
/// @file timestamps.hpp
/// @brief The times cache records carry: ISO 8601 UTC text that sorts in time order.
#include <chrono>
#include <string>

namespace frost::cache {

/// Current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ": fixed width, so newer sorts later as text.
std::string iso8601_now();
/// The same format for another time (e.g. a pruning cut-off).
std::string iso8601_at(std::chrono::system_clock::time_point t);

/// A timestamp that compares as text in time order: writers may give "...:SSZ" or
/// "...:SS.fffZ" (UTC), so the fraction is padded to nine digits. Other text is kept as is.
std::string time_order(const std::string& t);

} // namespace frost::cache
