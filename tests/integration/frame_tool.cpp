// frame_tool.cpp - sends bad frames to a daemon for bad_input_test.sh, then checks that the daemon
// still answers a good request. Prints one line per case: "<case> <outcome>".
//
//   frame_tool HOST PORT AUTH_SOCKET
#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

#include "net/client.hpp"
#include "proto/frame.hpp"

namespace {

using drover::proto::kFrameHeaderSize;

int connect_to(const char *host, int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    ::inet_pton(AF_INET, host, &a.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    timeval tv{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

// Sends bytes, then reads a reply frame: "closed", "timeout", or the reply's body type/text.
std::string exchange(const char *host, int port, const std::vector<uint8_t> &bytes,
                     bool half_close = false) {
    int fd = connect_to(host, port);
    if (fd < 0) return "connect-failed";
    (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (half_close) ::shutdown(fd, SHUT_WR);
    uint8_t hdr[kFrameHeaderSize];
    ssize_t n = ::recv(fd, hdr, sizeof hdr, MSG_WAITALL);
    if (n <= 0) {
        // Closing with our bytes unread makes the kernel reset the connection: also a refusal.
        bool reset = n < 0 && errno == ECONNRESET;
        ::close(fd);
        return n == 0 || reset ? "closed" : "timeout";
    }
    uint32_t len = 0;
    if (!drover::proto::decode_frame_header(hdr, &len).empty()) {
        ::close(fd);
        return "bad-reply";
    }
    std::vector<uint8_t> body(len);
    ::recv(fd, body.data(), len, MSG_WAITALL);
    ::close(fd);
    drover::proto::Verified v;
    if (!drover::proto::verify_frame_body(body, &v).empty()) return "bad-reply";
    if (auto *e = v.message->body_as_ErrorResponse())
        return std::string("error: ") + (e->message() ? e->message()->c_str() : "");
    return drover::proto::EnumNameBody(v.message->body_type());
}

std::vector<uint8_t> ping_message() {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(drover::proto::CreateMessage(fbb, drover::proto::Body::ControllerPingRequest,
                                            drover::proto::CreateControllerPingRequest(fbb).Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: frame_tool HOST PORT AUTH_SOCKET\n");
        return 2;
    }
    const char *host = argv[1];
    int port = std::atoi(argv[2]);
    std::string socket = argv[3];

    std::vector<uint8_t> garbage(4096);
    for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = uint8_t(i * 131 + 7);
    std::printf("garbage %s\n", exchange(host, port, garbage, true).c_str());

    std::vector<uint8_t> oversize(kFrameHeaderSize);
    drover::proto::encode_frame_header(oversize.data(), 0xffffffffu);
    std::printf("oversize %s\n", exchange(host, port, oversize).c_str());

    auto msg = ping_message();
    auto good = drover::proto::make_frame(msg, drover::net::sign_via_socket(socket, msg));
    std::vector<uint8_t> truncated(good.begin(), good.begin() + long(good.size() / 2));
    std::printf("truncated %s\n", exchange(host, port, truncated, true).c_str());

    std::vector<uint8_t> corrupt = good;
    for (std::size_t i = kFrameHeaderSize; i < corrupt.size(); i += 3) corrupt[i] ^= 0x5a;
    std::printf("corrupt %s\n", exchange(host, port, corrupt).c_str());

    std::vector<uint8_t> forged_cred(64, 0x42);
    std::printf("forged %s\n",
                exchange(host, port, drover::proto::make_frame(msg, forged_cred)).c_str());

    // A real credential over a different body: the signature must not cover it.
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(drover::proto::CreateMessage(fbb, drover::proto::Body::ShutdownRequest,
                                            drover::proto::CreateShutdownRequest(fbb).Union()));
    std::vector<uint8_t> other(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    auto cred = drover::net::sign_via_socket(socket, msg);
    std::printf("tampered %s\n", exchange(host, port, drover::proto::make_frame(other, cred)).c_str());

    std::printf("first %s\n", exchange(host, port, good).c_str());
    std::printf("replay %s\n", exchange(host, port, good).c_str());

    auto fresh = drover::proto::make_frame(msg, drover::net::sign_via_socket(socket, msg));
    std::printf("after %s\n", exchange(host, port, fresh).c_str());
    return 0;
}
