// frame_tool.cpp - an attacker's and a tester's frames for bad_input_test.sh and
// security_test.sh. Prints one line per case: "<case> <outcome>".
//
//   frame_tool HOST PORT SOCKET NAME bad           malformed, forged, tampered, replayed frames
//   frame_tool HOST PORT SOCKET NAME ping [EPOCH]  a ControllerPingRequest carrying EPOCH
//   frame_tool HOST PORT SOCKET NAME seal TO FILE  writes a ping frame sealed for TO into FILE
//   frame_tool HOST PORT SOCKET NAME send FILE     sends the frame in FILE
//   frame_tool HOST PORT SOCKET NAME claim N SECS  N connections announcing 64 MiB bodies,
//                                                  held SECS seconds
//   frame_tool HOST PORT SOCKET NAME flood N SECS  N idle connections to HOST:PORT, held SECS
//   frame_tool HOST PORT SOCKET NAME sockflood N SECS  N connections to SOCKET announcing a
//                                                  64 MiB message and sending nothing more
//   frame_tool HOST PORT SOCKET NAME garbage N     N frames of garbage, one connection each
//
// SOCKET is the credential socket that seals frames for the calling user; NAME is the name of
// the daemon at HOST:PORT (its SlurmctldHost or NodeName), the receiver a frame is sealed for.
#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "daemon/daemon.hpp"
#include "net/client.hpp"
#include "net/fd.hpp"
#include "proto/frame.hpp"

namespace {

namespace proto = drover::proto;
namespace net = drover::net;
using Bytes = std::vector<uint8_t>;

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
    timeval tv{15, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

// Sends bytes, then reads a reply frame: "closed", "timeout", or the reply's body type/text.
std::string exchange(const char *host, int port, const Bytes &bytes, bool half_close = false) {
    int fd = connect_to(host, port);
    if (fd < 0) return "connect-failed";
    (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (half_close) ::shutdown(fd, SHUT_WR);
    std::string out;
    try {
        net::Reply r = net::read_frame(fd, net::Deadline(15000), host);
        if (auto *e = r.msg->body_as_ErrorResponse())
            out = std::string("error: ") + (e->message() ? e->message()->c_str() : "");
        else
            out = proto::EnumNameBody(r.msg->body_type());
    } catch (const net::NetError &e) {
        // Closing with our bytes unread makes the kernel reset the connection: also a refusal.
        std::string why = e.what();
        out = why.find("timed out") != std::string::npos ? "timeout" : "closed";
    }
    ::close(fd);
    return out;
}

Bytes ping_message(uint64_t epoch = 0) {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ControllerPingRequest,
                                    proto::CreateControllerPingRequest(fbb).Union(), epoch));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

Bytes sealed(const std::string &socket, const Bytes &msg, const std::string &to) {
    net::Seal s = net::sign_via_socket(socket, msg, to);
    return proto::make_frame(msg, to, s.digest, s.cred);
}

int bad_frames(const char *host, int port, const std::string &socket, const std::string &name) {
    Bytes garbage(4096);
    for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = uint8_t(i * 131 + 7);
    std::printf("garbage %s\n", exchange(host, port, garbage, true).c_str());

    auto msg = ping_message();
    Bytes good = sealed(socket, msg, name);
    Bytes oversize = good;
    oversize[12] = oversize[13] = oversize[14] = oversize[15] = 0xff; // a 4 GiB body announced
    std::printf("oversize %s\n", exchange(host, port, oversize).c_str());

    Bytes truncated(good.begin(), good.begin() + long(good.size() / 2));
    std::printf("truncated %s\n", exchange(host, port, truncated, true).c_str());

    Bytes corrupt = sealed(socket, msg, name); // the body only: the seal holds, the digest not
    for (std::size_t i = corrupt.size() - msg.size(); i < corrupt.size(); i += 3)
        corrupt[i] ^= 0x5a;
    std::printf("corrupt %s\n", exchange(host, port, corrupt).c_str());

    net::Seal seal = net::sign_via_socket(socket, msg, name);
    Bytes forged_cred(65, 0x42);
    std::printf(
        "forged %s\n",
        exchange(host, port, proto::make_frame(msg, name, seal.digest, forged_cred)).c_str());

    // A real seal over a different body: the credential must not cover it.
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ShutdownRequest,
                                    proto::CreateShutdownRequest(fbb).Union()));
    Bytes other(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    std::printf(
        "tampered %s\n",
        exchange(host, port, proto::make_frame(other, name, seal.digest, seal.cred)).c_str());

    std::printf("misdirected %s\n", exchange(host, port, sealed(socket, msg, name + "x")).c_str());
    std::printf("first %s\n", exchange(host, port, good).c_str());
    std::printf("replay %s\n", exchange(host, port, good).c_str());
    std::printf("after %s\n", exchange(host, port, sealed(socket, msg, name)).c_str());
    return 0;
}

// N connections that announce a 64 MiB JobSubmitRequest with a forged credential and then send
// nothing more, held for secs: the daemon must refuse them at the preamble, allocating nothing.
int claim(const char *host, int port, const std::string &name, int n, int secs) {
    Bytes msg = ping_message();
    Bytes frame = proto::make_frame(msg, name, proto::Digest{}, Bytes(65, 0x42));
    frame[6] = uint8_t(proto::Body::JobSubmitRequest);
    frame[12] = 0x04; // body length 64 MiB
    frame[13] = frame[14] = frame[15] = 0;
    Bytes head(frame.begin(), frame.end() - long(msg.size()));
    std::vector<int> fds;
    for (int i = 0; i < n; ++i) {
        int fd = connect_to(host, port);
        if (fd < 0) continue;
        (void)!::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
        fds.push_back(fd);
    }
    std::printf("claimed %zu\n", fds.size());
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(secs));
    for (int fd : fds) ::close(fd);
    return 0;
}

// Opens up to n connections without waiting for the daemon to accept them (non-blocking
// connects), holds them secs seconds, then prints how many it opened.
int flood(const char *host, int port, const std::string &socket, bool unix_socket, int n,
          int secs) {
    drover::daemon::raise_fd_limit(); // as many descriptors as the hard limit allows
    std::vector<int> fds;
    for (int i = 0; i < n; ++i) {
        int fd = -1;
        if (unix_socket) {
            fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
            sockaddr_un a{};
            a.sun_family = AF_UNIX;
            std::snprintf(a.sun_path, sizeof a.sun_path, "%s", socket.c_str());
            if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0) {
                uint8_t head[4 + 2 + 4] = {};
                uint32_t magic = drover::net::kAuthSocketMagic, len = 64u << 20;
                std::memcpy(head, &magic, 4);
                head[4] = uint8_t(proto::Body::JobSubmitRequest);
                std::memcpy(head + 6, &len, 4);
                (void)!::send(fd, head, sizeof head, MSG_NOSIGNAL);
            }
        } else {
            fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_port = htons(uint16_t(port));
            ::inet_pton(AF_INET, host, &a.sin_addr);
            if (fd >= 0) (void)!::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
        }
        if (fd < 0) break; // out of descriptors: hold what we have
        fds.push_back(fd);
    }
    std::printf("opened %zu\n", fds.size());
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(secs));
    for (int fd : fds) ::close(fd);
    return 0;
}

int garbage(const char *host, int port, int n) {
    Bytes junk(64);
    for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = uint8_t(i * 37 + 11);
    int sent = 0;
    for (int i = 0; i < n; ++i) {
        int fd = connect_to(host, port);
        if (fd < 0) continue;
        sent += ::send(fd, junk.data(), junk.size(), MSG_NOSIGNAL) > 0;
        ::close(fd);
    }
    std::printf("garbage %d\n", sent);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 6) {
        std::fprintf(stderr,
                     "usage: frame_tool HOST PORT SOCKET NAME bad|ping|seal|send|claim ...\n");
        return 2;
    }
    const char *host = argv[1];
    int port = std::atoi(argv[2]);
    std::string socket = argv[3], name = argv[4], what = argv[5];
    try {
        if (what == "bad") return bad_frames(host, port, socket, name);
        if (what == "ping") {
            uint64_t epoch = argc > 6 ? std::strtoull(argv[6], nullptr, 10) : 0;
            std::printf("ping %s\n",
                        exchange(host, port, sealed(socket, ping_message(epoch), name)).c_str());
            return 0;
        }
        if (what == "seal" && argc == 8) {
            Bytes f = sealed(socket, ping_message(), argv[6]);
            std::ofstream(argv[7], std::ios::binary)
                .write(reinterpret_cast<const char *>(f.data()), long(f.size()));
            return 0;
        }
        if (what == "send" && argc == 7) {
            std::ifstream in(argv[6], std::ios::binary);
            Bytes f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::printf("send %s\n", exchange(host, port, f).c_str());
            return 0;
        }
        if (what == "claim" && argc == 8)
            return claim(host, port, name, std::atoi(argv[6]), std::atoi(argv[7]));
        if ((what == "flood" || what == "sockflood") && argc == 8)
            return flood(host, port, socket, what == "sockflood", std::atoi(argv[6]),
                         std::atoi(argv[7]));
        if (what == "garbage" && argc == 7) return garbage(host, port, std::atoi(argv[6]));
    } catch (const std::exception &e) {
        std::printf("failed %s\n", e.what());
        return 1;
    }
    std::fprintf(stderr, "frame_tool: bad arguments\n");
    return 2;
}
