// fuzz_http_get.cpp - fuzz target: parse_http_get on arbitrary bytes (what anyone who reaches the
// controller's port may send once MetricsType is set). A GET it accepts has a path that starts
// with '/', holds no space, control byte or query, and comes back in a reply's bytes unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "net/http_get.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > drover::net::kMaxHttpHead) return 0;
    std::string_view head(reinterpret_cast<const char *>(data), size);
    drover::net::HttpGet get = drover::net::parse_http_get(head);
    if (get.error.empty()) {
        if (get.path.empty() || get.path[0] != '/') std::abort();
        for (char c : get.path)
            if (static_cast<unsigned char>(c) <= ' ' || c == '?' || c == 0x7f) std::abort();
    } else if (!get.path.empty()) {
        std::abort();
    }
    std::string reply = drover::net::http_response({200, "text/plain", get.path});
    if (!reply.starts_with("HTTP/1.1 200 OK\r\n") || !reply.ends_with("\r\n\r\n" + get.path))
        std::abort();
    return 0;
}
