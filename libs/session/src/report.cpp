#include "frost/session/report.hpp"

#include <algorithm>
#include <cmath>

#include "frost/core/atomic_file.hpp"

namespace frost::session {

namespace {

std::string escape_html(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

/// JSON that may sit inside <script>: no "</script>" can end the element early.
std::string script_safe(std::string json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

nlohmann::ordered_json chart_data(const std::vector<MovieRecord>& records) {
  nlohmann::ordered_json movies = nlohmann::ordered_json::array();
  for (const MovieRecord& r : records) {
    nlohmann::ordered_json m;
    m["order"] = r.order;
    m["name"] = r.movie.substr(r.movie.find_last_of('/') + 1);
    m["done"] = r.done();
    m["ready"] = r.ready_at ? nlohmann::ordered_json(*r.ready_at) : nlohmann::ordered_json(nullptr);
    m["motion"] = r.accum_motion_total && std::isfinite(*r.accum_motion_total) ? nlohmann::ordered_json(*r.accum_motion_total)
                                                                                 : nlohmann::ordered_json(nullptr);
    m["frc"] = r.frc_resolution_A && std::isfinite(*r.frc_resolution_A) ? nlohmann::ordered_json(*r.frc_resolution_A)
                                                                         : nlohmann::ordered_json(nullptr);
    movies.push_back(m);
  }
  return movies;
}

// The page's script: draws three SVG scatter plots from the embedded JSON. Plain ES5 so that any
// browser of a facility's workstation runs it; the marker element tells a headless test that it
// ran to the end (docs/session.md#report).
constexpr const char* kScript = R"js(
window.onerror = function (msg) {
  var e = document.createElement('div');
  e.id = 'frost-report-error';
  e.textContent = 'report script error: ' + msg;
  document.body.appendChild(e);
};
(function () {
  var NS = 'http://www.w3.org/2000/svg'; // a name, not a request
  var data = JSON.parse(document.getElementById('frost-data').textContent);
  function el(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmt(v) { return Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3); }
  function scatter(id, points, xlabel, ylabel, line) {
    var svg = document.getElementById(id);
    var W = 460, H = 260, L = 56, R = 12, T = 12, B = 40;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.appendChild(el('text', {x: L + (W - L - R) / 2, y: H - 6, 'text-anchor': 'middle', 'class': 'lab'}, xlabel));
    svg.appendChild(el('text', {x: 14, y: T + (H - T - B) / 2, 'text-anchor': 'middle', 'class': 'lab',
                                transform: 'rotate(-90 14 ' + (T + (H - T - B) / 2) + ')'}, ylabel));
    svg.appendChild(el('rect', {x: L, y: T, width: W - L - R, height: H - T - B, 'class': 'frame'}));
    if (points.length === 0) {
      svg.appendChild(el('text', {x: L + 10, y: T + 24, 'class': 'lab'}, 'no data yet'));
      return 0;
    }
    var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    points.forEach(function (p) { x0 = Math.min(x0, p[0]); x1 = Math.max(x1, p[0]); y0 = Math.min(y0, p[1]); y1 = Math.max(y1, p[1]); });
    if (x1 === x0) { x1 = x0 + 1; }
    if (y1 === y0) { y1 = y0 + 1; }
    y0 = Math.min(y0, 0);
    function sx(v) { return L + (v - x0) / (x1 - x0) * (W - L - R); }
    function sy(v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); }
    [[x0, 'start'], [x1, 'end']].forEach(function (t) {
      svg.appendChild(el('text', {x: sx(t[0]), y: H - B + 14, 'text-anchor': t[1], 'class': 'tick'}, fmt(t[0])));
    });
    [y0, y1].forEach(function (v) {
      svg.appendChild(el('text', {x: L - 4, y: sy(v) + 4, 'text-anchor': 'end', 'class': 'tick'}, fmt(v)));
    });
    if (line) {
      var d = points.map(function (p, i) { return (i ? 'L' : 'M') + sx(p[0]).toFixed(1) + ' ' + sy(p[1]).toFixed(1); }).join(' ');
      svg.appendChild(el('path', {d: d, 'class': 'line'}));
    } else {
      points.forEach(function (p) {
        var c = el('circle', {cx: sx(p[0]).toFixed(1), cy: sy(p[1]).toFixed(1), r: 2.5, 'class': 'dot'});
        c.appendChild(el('title', {}, p[2] + ': ' + fmt(p[1])));
        svg.appendChild(c);
      });
    }
    return points.length;
  }
  var done = data.movies.filter(function (m) { return m.done; });
  var times = done.filter(function (m) { return m.ready !== null; }).map(function (m) { return m.ready; }).sort(function (a, b) { return a - b; });
  var through = times.map(function (t, i) { return [(t - times[0]) / 60, i + 1, '']; });
  var plotted = scatter('throughput', through, 'minutes since the first movie', 'movies done', true);
  plotted += scatter('motion', done.filter(function (m) { return m.motion !== null; }).map(function (m) { return [m.order, m.motion, m.name]; }),
                     'acquisition order', 'total motion (\u00c5)', false);
  plotted += scatter('frc', done.filter(function (m) { return m.frc !== null; }).map(function (m) { return [m.order, m.frc, m.name]; }),
                     'acquisition order', 'half-sum FRC resolution (\u00c5)', false);
  var ok = document.createElement('div');
  ok.id = 'frost-report-ok';
  ok.setAttribute('data-done', String(done.length));
  ok.setAttribute('data-failed', String(data.movies.length - done.length));
  ok.setAttribute('data-points', String(plotted));
  document.getElementById('status').appendChild(ok);
})();
)js";

constexpr const char* kStyle = R"css(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
.counts span { display: inline-block; margin-right: 2em; font-size: 1.3em; }
.charts svg { width: 460px; height: 260px; margin: 0 1em 1em 0; }
.frame { fill: none; stroke: #999; } .dot { fill: #1f77b4; } .line { fill: none; stroke: #1f77b4; stroke-width: 2; }
.lab { font-size: 12px; } .tick { font-size: 10px; fill: #555; }
.thumbs figure { display: inline-block; margin: 0 1.5em 1em 0; } .thumbs img { max-width: 256px; margin-right: 4px; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
)css";

} // namespace

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = static_cast<std::uint32_t>(bytes[i]) << 16 |
                            (i + 1 < bytes.size() ? static_cast<std::uint32_t>(bytes[i + 1]) << 8 : 0u) |
                            (i + 2 < bytes.size() ? static_cast<std::uint32_t>(bytes[i + 2]) : 0u);
    out += k[(n >> 18) & 63];
    out += k[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? k[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k[n & 63] : '=';
  }
  return out;
}

std::optional<std::size_t> worst_record(const std::vector<MovieRecord>& records) {
  std::optional<std::size_t> by_frc, by_motion;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const MovieRecord& r = records[i];
    if (!r.done()) continue;
    if (r.frc_resolution_A && (!by_frc || *r.frc_resolution_A > *records[*by_frc].frc_resolution_A)) by_frc = i;
    if (!by_motion || r.accum_motion_total.value_or(0) > records[*by_motion].accum_motion_total.value_or(0)) by_motion = i;
  }
  return by_frc ? by_frc : by_motion;
}

std::string report_html(const ReportInput& in) {
  std::int64_t done = 0, failed = 0;
  for (const MovieRecord& r : in.records) (r.done() ? done : failed) += 1;
  std::vector<MovieRecord> sorted = in.records;
  std::stable_sort(sorted.begin(), sorted.end(), [](const MovieRecord& a, const MovieRecord& b) { return a.order < b.order; });

  nlohmann::ordered_json data;
  data["movies"] = chart_data(sorted);
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" + escape_html(in.title) + "</title>\n";
  h += "<style>" + std::string(kStyle) + "</style></head>\n<body>\n";
  h += "<h1>" + escape_html(in.title) + "</h1>\n";
  // The counts are written here, not by the script, so the page says them even where scripts
  // are off; the script's marker repeats them for the test.
  h += "<div id=\"status\" class=\"counts\"><span>done: <b id=\"count-done\">" + std::to_string(done) +
       "</b></span><span>failed: <b id=\"count-failed\">" + std::to_string(failed) +
       "</b></span><span>pending: <b id=\"count-pending\">" + std::to_string(in.pending) + "</b></span></div>\n";
  h += "<h2>Throughput and quality</h2>\n<div class=\"charts\"><svg id=\"throughput\" role=\"img\"></svg>"
       "<svg id=\"motion\" role=\"img\"></svg><svg id=\"frc\" role=\"img\"></svg></div>\n";
  if (!in.thumbnails.empty()) {
    h += "<h2>Micrographs</h2>\n<div class=\"thumbs\">\n";
    for (const ReportThumbnail& t : in.thumbnails) {
      h += "<figure><figcaption>" + escape_html(t.label) + ": " + escape_html(t.movie) + "</figcaption>";
      if (!t.micrograph_png.empty())
        h += "<img alt=\"micrograph\" src=\"data:image/png;base64," + base64(t.micrograph_png) + "\">";
      if (!t.spectrum_png.empty())
        h += "<img alt=\"power spectrum\" src=\"data:image/png;base64," + base64(t.spectrum_png) + "\">";
      h += "</figure>\n";
    }
    h += "</div>\n";
  }
  h += "<h2>Failures</h2>\n<table id=\"failures\"><thead><tr><th>#</th><th>movie</th><th>attempts</th><th>reason</th></tr></thead><tbody>\n";
  for (const MovieRecord& r : sorted) {
    if (r.done()) continue;
    h += "<tr><td>" + std::to_string(r.order) + "</td><td>" + escape_html(r.movie) + "</td><td>" +
         std::to_string(r.attempts) + "</td><td>" + escape_html(r.reason) + "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  h += "<script id=\"frost-data\" type=\"application/json\">" + script_safe(data.dump()) + "</script>\n";
  h += "<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return h;
}

void write_report(const std::string& path, const ReportInput& input) { write_text_file_atomic(path, report_html(input)); }

} // namespace frost::session
