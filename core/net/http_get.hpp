// http_get.hpp - the plain HTTP GET a daemon's port answers beside its frames, for scrapers
// (Prometheus) that read the controller's metrics (MetricsType=metrics/openmetrics): the request
// head read back, and the reply written. No keep-alive, no body: one GET, one answer, closed.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace drover::net {

// Enough for a request line and the headers a scraper sends; more is refused.
inline constexpr std::size_t kMaxHttpHead = 8192;

struct HttpGet {
    std::string path;  // "/metrics/jobs", without a query
    std::string error; // why the head is not a GET we answer ("" when it is)
};

// Reads a complete head (request line and headers, through the blank line).
HttpGet parse_http_get(std::string_view head);

struct HttpReply {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
};

// The bytes of the reply: status line, Content-Type, Content-Length, Connection: close.
std::string http_response(const HttpReply &reply);

// What a daemon answers for a path (on its io_context's thread).
using HttpHandler = std::function<HttpReply(const std::string &path)>;

} // namespace drover::net
