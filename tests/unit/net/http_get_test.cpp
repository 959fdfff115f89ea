// http_get_test.cpp - the HTTP GET a daemon's port answers for scrapers: which heads are a GET,
// what path they ask for, and the reply's bytes.
#include <gtest/gtest.h>

#include "net/http_get.hpp"

using namespace drover::net;

TEST(HttpGet, ReadsThePathOfAGet) {
    HttpGet g =
        parse_http_get("GET /metrics/jobs HTTP/1.1\r\nHost: ctl:6817\r\nAccept: */*\r\n\r\n");
    EXPECT_EQ(g.error, "");
    EXPECT_EQ(g.path, "/metrics/jobs");
    EXPECT_EQ(parse_http_get("GET /metrics?x=1 HTTP/1.0\r\n\r\n").path, "/metrics");
}

TEST(HttpGet, RefusesWhatIsNotAGetItAnswers) {
    EXPECT_EQ(parse_http_get("POST /metrics HTTP/1.1\r\n\r\n").error, "method POST not allowed");
    EXPECT_EQ(parse_http_get("GET /metrics HTTP/2\r\n\r\n").error, "not HTTP/1.x");
    EXPECT_EQ(parse_http_get("GET metrics HTTP/1.1\r\n\r\n").error, "malformed request target");
    EXPECT_EQ(parse_http_get("GET /a\x01 HTTP/1.1\r\n\r\n").error, "malformed request target");
    EXPECT_EQ(parse_http_get("GET /metrics\r\n\r\n").error, "malformed request line");
    EXPECT_EQ(parse_http_get("GET /metrics HTTP/1.1").error, "no request line");
}

TEST(HttpGet, WritesAReplyThatClosesTheConnection) {
    EXPECT_EQ(http_response({404, "text/plain", "/metrics/jobs\n"}),
              "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 14\r\n"
              "Connection: close\r\n\r\n/metrics/jobs\n");
}
