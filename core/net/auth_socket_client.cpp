// auth_socket_client.cpp - commands get their credential from the local daemon's Unix socket.
//
// Protocol (local only, the kernel vouches for the caller): request = u32 length + the finished
// Message bytes; reply = u32 length + credential, or u32 0xffffffff + u32 length + error text.
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>

#include "common/config.hpp"
#include "net/client.hpp"
#include "net/fd.hpp"

namespace drover::net {

std::string auth_socket_path(const Config &conf) {
    if (auto s = conf.auth_option("socket")) return *s;
    return kDefaultAuthSocket;
}

namespace {
void put_u32(uint8_t *p, uint32_t v) { std::memcpy(p, &v, 4); }
uint32_t get_u32(const uint8_t *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
}  // namespace

std::vector<uint8_t> sign_via_socket(const std::string &path, std::span<const uint8_t> message) {
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) throw NetError("auth socket path too long: " + path);
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    if (!fd || ::connect(fd.get(), reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0)
        throw SocketUnreachable("Unable to contact slurm controller (cannot reach credential socket " +
                       path + ": " + std::strerror(errno) + ")");
    Deadline deadline(10000);
    uint8_t len[4];
    put_u32(len, uint32_t(message.size()));
    write_all(fd.get(), len, 4, deadline);
    write_all(fd.get(), message.data(), message.size(), deadline);
    read_all(fd.get(), len, 4, deadline);
    uint32_t n = get_u32(len);
    bool failed = n == 0xffffffffu;
    if (failed) {
        read_all(fd.get(), len, 4, deadline);
        n = get_u32(len);
    }
    if (n > 65536) throw NetError("credential socket sent a bad reply");
    std::vector<uint8_t> out(n);
    read_all(fd.get(), out.data(), n, deadline);
    if (failed) throw NetError("credential refused: " + std::string(out.begin(), out.end()));
    return out;
}

Signer socket_signer(const Config &conf) {
    std::string path = auth_socket_path(conf);
    return [path](std::span<const uint8_t> message) { return sign_via_socket(path, message); };
}

}  // namespace drover::net
