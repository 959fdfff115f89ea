// http_get.cpp - reading an HTTP GET head and writing its reply.
#include "net/http_get.hpp"

namespace drover::net {

namespace {

const char *reason_of(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    default:
        return "Error";
    }
}

bool printable_path(std::string_view p) {
    for (char c : p)
        if (static_cast<unsigned char>(c) <= ' ' || static_cast<unsigned char>(c) >= 0x7f)
            return false;
    return true;
}

} // namespace

HttpGet parse_http_get(std::string_view head) {
    HttpGet out;
    std::size_t eol = head.find("\r\n");
    if (eol == std::string_view::npos) return {{}, "no request line"};
    std::string_view line = head.substr(0, eol);
    std::size_t sp1 = line.find(' ');
    std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos) return {{}, "malformed request line"};
    std::string_view method = line.substr(0, sp1);
    std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view version = line.substr(sp2 + 1);
    if (method != "GET")
        return {{}, "method " + std::string(method.substr(0, 16)) + " not allowed"};
    if (version != "HTTP/1.1" && version != "HTTP/1.0") return {{}, "not HTTP/1.x"};
    if (target.empty() || target[0] != '/' || !printable_path(target))
        return {{}, "malformed request target"};
    out.path = std::string(target.substr(0, target.find('?')));
    return out;
}

std::string http_response(const HttpReply &reply) {
    std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason_of(reply.status) +
                      "\r\nContent-Type: " + reply.content_type +
                      "\r\nContent-Length: " + std::to_string(reply.body.size()) +
                      "\r\nConnection: close\r\n\r\n";
    out += reply.body;
    return out;
}

} // namespace drover::net
