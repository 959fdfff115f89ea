// fd.hpp - a file descriptor owner and deadline-bounded blocking socket I/O.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <unistd.h>
#include <utility>

namespace drover::net {

class UniqueFd {
  public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    UniqueFd &operator=(UniqueFd &&o) noexcept {
        if (this != &o) {
            reset();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    ~UniqueFd() { reset(); }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }
    explicit operator bool() const { return fd_ >= 0; }
    void reset() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

  private:
    int fd_ = -1;
};

struct Deadline {
    explicit Deadline(int timeout_ms)
        : at(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms)) {}
    int remaining_ms() const;
    std::chrono::steady_clock::time_point at;
};

// Blocking I/O on a non-blocking socket, bounded by the deadline; throw NetError.
void write_all(int fd, const uint8_t *data, std::size_t len, const Deadline &deadline);
void read_all(int fd, uint8_t *data, std::size_t len, const Deadline &deadline);

} // namespace drover::net
