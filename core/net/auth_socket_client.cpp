// auth_socket_client.cpp - commands get their credential from the local daemon's Unix socket.
//
// Protocol (local only, the kernel vouches for the caller; integers in host order):
//   request = u32 kAuthSocketMagic | u8 body type | u8 receiver length | receiver |
//             u32 message length | the finished Message
//   reply   = u32 credential length | body digest (32 bytes) | credential,
//             or u32 0xffffffff | u32 length | error text
// The daemon hashes the message as it arrives and keeps none of it.
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
void put_u32(uint8_t *p, uint32_t v) {
    std::memcpy(p, &v, 4);
}
uint32_t get_u32(const uint8_t *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
} // namespace

Seal sign_via_socket(const std::string &path, std::span<const uint8_t> message,
                     std::string_view to) {
    if (to.size() > proto::kMaxReceiver)
        throw NetError("receiver name too long: " + std::string(to));
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) throw NetError("auth socket path too long: " + path);
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    if (!fd || ::connect(fd.get(), reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0)
        throw SocketUnreachable(
            "Unable to contact slurm controller (cannot reach credential socket " + path + ": " +
            std::strerror(errno) + ")");
    Deadline deadline(10000);
    std::vector<uint8_t> head(4 + 2 + to.size() + 4);
    put_u32(head.data(), kAuthSocketMagic);
    head[4] = uint8_t(proto::message_type(message));
    head[5] = uint8_t(to.size());
    std::memcpy(head.data() + 6, to.data(), to.size());
    put_u32(head.data() + 6 + to.size(), uint32_t(message.size()));
    write_all(fd.get(), head.data(), head.size(), deadline);
    write_all(fd.get(), message.data(), message.size(), deadline);
    uint8_t len[4];
    read_all(fd.get(), len, 4, deadline);
    uint32_t n = get_u32(len);
    if (n == 0xffffffffu) {
        read_all(fd.get(), len, 4, deadline);
        n = get_u32(len);
        if (n > 4096) throw NetError("credential socket sent a bad reply");
        std::string why(n, '\0');
        read_all(fd.get(), reinterpret_cast<uint8_t *>(why.data()), n, deadline);
        throw NetError("credential refused: " + why);
    }
    if (n > proto::kMaxPreamble) throw NetError("credential socket sent a bad reply");
    Seal seal;
    read_all(fd.get(), seal.digest.data(), seal.digest.size(), deadline);
    seal.cred.resize(n);
    read_all(fd.get(), seal.cred.data(), n, deadline);
    return seal;
}

Signer socket_signer(const Config &conf) {
    std::string path = auth_socket_path(conf);
    return [path](std::span<const uint8_t> message, std::string_view to) {
        return sign_via_socket(path, message, to);
    };
}

} // namespace drover::net
