// step_io_port.hpp - the port srun and sattach open for a step's nodes to connect back to: the
// listening socket and its key, each node's connection (a Hello with the key first, then frames
// both ways, common/step_io.hpp), and the tasks' output as the user sees it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/step_io.hpp"

namespace drover::cli {

// One node's connection.
struct IoConn {
    int fd = -1;
    bool hello = false; // said hello with the right key: node is known
    std::string node;
    std::string in;  // bytes read, not yet framed
    std::string out; // bytes to write
    bool done = false;
};

class StepIoPort {
  public:
    StepIoPort() = default;
    StepIoPort(const StepIoPort &) = delete;
    StepIoPort &operator=(const StepIoPort &) = delete;
    ~StepIoPort();

    // Listens on a port of its own, with a new random key; host() is this machine's address
    // towards the node daemon at node_addr ("host:port"). False with *why.
    bool open(const std::string &node_addr, std::string *why);
    int listen_fd() const { return listen_fd_; }
    uint16_t port() const { return port_; }
    const std::string &host() const { return host_; }
    const std::string &key() const { return key_; }

    std::vector<IoConn> &conns() { return conns_; }
    const std::vector<IoConn> &conns() const { return conns_; }
    // A node connecting (the listening socket is readable).
    void accept();
    // Serves c after poll said revents: writes what is queued, reads, and hands each whole
    // frame after its hello to on_frame. False once the connection has ended (closed here: a
    // read end, an error, a frame that is not from a node of this step).
    using FrameFn = std::function<void(IoConn &, const stepio::Header &, std::string_view)>;
    bool serve(IoConn &c, short revents, const FrameFn &on_frame);
    // Queues a frame to every node that said hello and has not ended.
    void send_all(stepio::Type type, uint32_t task, std::string_view data);
    // Forgets the connections that have ended.
    void drop_closed();

  private:
    bool take_frames(IoConn &c, const FrameFn &on_frame);

    int listen_fd_ = -1;
    uint16_t port_ = 0;
    std::string host_, key_;
    std::vector<IoConn> conns_;
};

// A task's exit code as srun and sattach report it: its own, or 128 + the signal that ended it.
int task_exit_code(int status);

// The tasks' output on our stdout and stderr; with --label each whole line is prefixed with its
// task ("3: "), and a line not yet ended waits for its end (or flush()).
class TaskOutput {
  public:
    explicit TaskOutput(bool label) : label_(label) {}
    void write(uint32_t task, bool err, std::string_view data);
    void flush();

  private:
    bool label_;
    std::map<std::pair<uint32_t, bool>, std::string> partial_; // unfinished lines
};

} // namespace drover::cli
