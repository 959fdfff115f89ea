// step_io_port.cpp - a step's I/O port and its nodes' connections.
#include "cli/step_io_port.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cli/text.hpp"

namespace drover::cli {

namespace {

// The address nodes reach us at: the local end of a route to the node.
std::string local_address_towards(const std::string &host, uint16_t port) {
    int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    std::string addr = "127.0.0.1";
    if (fd >= 0 && ::inet_pton(AF_INET, host.c_str(), &to.sin_addr) == 1 &&
        ::connect(fd, reinterpret_cast<sockaddr *>(&to), sizeof to) == 0) {
        sockaddr_in me{};
        socklen_t len = sizeof me;
        char buf[INET_ADDRSTRLEN];
        if (::getsockname(fd, reinterpret_cast<sockaddr *>(&me), &len) == 0 &&
            ::inet_ntop(AF_INET, &me.sin_addr, buf, sizeof buf))
            addr = buf;
    }
    if (fd >= 0) ::close(fd);
    return addr;
}

} // namespace

StepIoPort::~StepIoPort() {
    for (auto &c : conns_)
        if (c.fd >= 0) ::close(c.fd);
    if (listen_fd_ >= 0) ::close(listen_fd_);
}

bool StepIoPort::open(const std::string &node_addr, std::string *why) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t len = sizeof a;
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
        ::listen(listen_fd_, 1024) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&a), &len) != 0) {
        *why = std::string("cannot open the I/O port: ") + std::strerror(errno);
        return false;
    }
    port_ = ntohs(a.sin_port);
    key_.resize(stepio::kKeyLen);
    if (::getrandom(key_.data(), key_.size(), 0) != ssize_t(key_.size())) {
        *why = "cannot make the I/O key";
        return false;
    }
    std::size_t colon = node_addr.rfind(':');
    host_ = local_address_towards(
        node_addr.substr(0, colon),
        uint16_t(colon == std::string::npos ? 0 : std::atoi(node_addr.c_str() + colon + 1)));
    return true;
}

void StepIoPort::accept() {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) return;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    conns_.push_back({fd});
}

// Frames c has read whole; false when one is not from a node of this step (wrong key, bad
// header): the connection is then closed.
bool StepIoPort::take_frames(IoConn &c, const FrameFn &on_frame) {
    while (c.in.size() >= stepio::kHeader) {
        stepio::Header h;
        if (!stepio::parse_header(reinterpret_cast<const uint8_t *>(c.in.data()), &h)) return false;
        // A connection that has not said hello gets no room for more than a hello.
        if (!c.hello && (h.type != stepio::Hello || h.len > stepio::kKeyLen + 1024)) return false;
        if (c.in.size() < stepio::kHeader + h.len) break;
        std::string_view data(c.in.data() + stepio::kHeader, h.len);
        if (!c.hello) {
            if (data.size() < stepio::kKeyLen || data.substr(0, stepio::kKeyLen) != key_)
                return false; // not one of our nodes
            c.hello = true;
            c.node = std::string(data.substr(stepio::kKeyLen));
        } else {
            on_frame(c, h, data);
        }
        c.in.erase(0, stepio::kHeader + h.len);
    }
    return true;
}

bool StepIoPort::serve(IoConn &c, short rev, const FrameFn &on_frame) {
    if (rev & POLLOUT && !c.out.empty()) {
        ssize_t w = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (w > 0) c.out.erase(0, std::size_t(w));
    }
    if (!(rev & (POLLIN | POLLHUP | POLLERR))) return true;
    char buf[65536];
    ssize_t got = ::read(c.fd, buf, sizeof buf);
    if (got > 0) c.in.append(buf, std::size_t(got));
    if (!take_frames(c, on_frame)) got = 0;
    if (got > 0 || (got < 0 && (errno == EAGAIN || errno == EINTR))) return true;
    ::close(c.fd);
    c.fd = -1;
    return false;
}

void StepIoPort::send_all(stepio::Type type, uint32_t task, std::string_view data) {
    for (auto &c : conns_)
        if (c.hello && !c.done) stepio::frame(c.out, type, task, data);
}

void StepIoPort::drop_closed() {
    std::erase_if(conns_, [](const IoConn &c) { return c.fd < 0; });
}

int task_exit_code(int status) {
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

void TaskOutput::write(uint32_t task, bool err, std::string_view data) {
    if (!label_) return err ? write_err(data) : write_out(data);
    std::string &part = partial_[{task, err}];
    part.append(data);
    std::string lines;
    std::size_t start = 0, nl;
    while ((nl = part.find('\n', start)) != std::string::npos) {
        lines += std::to_string(task) + ": " + part.substr(start, nl - start + 1);
        start = nl + 1;
    }
    part.erase(0, start);
    if (!lines.empty()) err ? write_err(lines) : write_out(lines);
}

void TaskOutput::flush() {
    for (auto &[k, part] : partial_)
        if (!part.empty()) {
            std::string line = std::to_string(k.first) + ": " + part + "\n";
            k.second ? write_err(line) : write_out(line);
            part.clear();
        }
}

} // namespace drover::cli
