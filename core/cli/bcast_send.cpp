// bcast_send.cpp - sbcast's transfer: the credential, then the file's blocks in order.
#include "cli/bcast_send.hpp"

#include <drover/views.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "cli/rpc.hpp"
#include "net/fanout.hpp"

namespace drover::cli {

namespace {

// The controller's answer: the nodes, their addresses and the credential.
struct Grant {
    net::Reply reply;
    const proto::BcastCredResponse *cred = nullptr;
};

bool ask_grant(const BcastSend &b, const std::string &prog, Grant *g) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto body = proto::CreateBcastCredRequest(fbb, b.job_id, b.step_id).Union();
    g->cred = ask_ctld<proto::BcastCredResponse>(
        g->reply, fbb, proto::Body::BcastCredRequest, body, [&](const net::RpcError &e) {
            std::string id = std::to_string(b.job_id);
            if (b.step_id != DROVER_NO_VAL) id += "." + std::to_string(b.step_id);
            print_error(prog, "Slurm job " + id + " lookup error: " + e.what());
        });
    return g->cred && g->cred->nodes() && g->cred->nodes()->size() > 0 && g->cred->cred();
}

std::vector<uint8_t> block_message(const BcastSend &b, const proto::BcastCredResponse &g,
                                   const struct stat &st, uint32_t block_no, uint64_t offset,
                                   std::span<const uint8_t> data, bool last) {
    flatbuffers::FlatBufferBuilder fbb(data.size() + g.cred()->size() + 512);
    auto cred = fbb.CreateVector(g.cred()->data(), g.cred()->size());
    auto dest = fbb.CreateString(b.dest);
    auto bytes = fbb.CreateVector(data.data(), data.size());
    proto::FileBcastRequestBuilder r(fbb);
    r.add_cred(cred);
    r.add_dest(dest);
    r.add_block_no(block_no);
    r.add_offset(offset);
    r.add_data(bytes);
    r.add_last(last);
    r.add_force(b.force);
    r.add_preserve(b.preserve);
    r.add_mode(uint32_t(st.st_mode & 07777));
    r.add_atime(st.st_atim.tv_sec);
    r.add_mtime(st.st_mtim.tv_sec);
    r.add_timeout_ms(b.timeout_ms);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::FileBcastRequest, r.Finish().Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// Reads up to size bytes; false on a read error.
bool read_block(int fd, std::vector<uint8_t> &buf, std::size_t size) {
    buf.resize(size);
    std::size_t got = 0;
    while (got < size) {
        ssize_t n = ::read(fd, buf.data() + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) break;
        got += std::size_t(n);
    }
    buf.resize(got);
    return true;
}

// The error number whose text a node answered with (a node writes strerror's), else 1.
int errno_of(const std::string &text) {
    for (int e = 1; e < 134; ++e)
        if (text == std::strerror(e)) return e;
    return 1;
}

// Every node's outcome of one block: 0, or (each failure said) the last failure's error number.
int all_written(const std::vector<net::NodeOutcome> &rs, const std::string &prog) {
    int rc = 0;
    for (const auto &r : rs) {
        if (r.rc == 0) continue;
        print_error(prog, "REQUEST_FILE_BCAST(" + r.node + "): " + r.message);
        rc = errno_of(r.message);
    }
    return rc;
}

constexpr int kNotSent = 255;

} // namespace

int send_file(const BcastSend &b, const std::string &prog) {
    int fd = ::open(b.source.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    int err = fd < 0 ? errno : 0;
    if (!err && ::fstat(fd, &st) != 0) err = errno;
    if (!err && !S_ISREG(st.st_mode)) err = EINVAL; // a pipe or device: its size is unknown
    if (err) {
        print_error(prog, "Can't open `" + b.source + "`: " + std::strerror(err));
        if (fd >= 0) ::close(fd);
        return kNotSent;
    }
    if (st.st_size == 0) print_error(prog, "Warning: file `" + b.source + "` is empty.");
    Grant g;
    if (!ask_grant(b, prog, &g)) return ::close(fd), kNotSent;
    std::vector<std::string> nodes;
    for (const auto *n : *g.cred->nodes()) nodes.push_back(n->str());
    const Config &conf = cli_config();
    unsigned width = b.fanout ? b.fanout : conf.tree_width;
    int timeout = int(b.timeout_ms ? b.timeout_ms : conf.message_timeout * 1000);
    auto resolve = net::address_book(g.cred->nodes(), g.cred->node_addrs());
    uint64_t offset = 0;
    std::vector<uint8_t> buf;
    for (uint32_t block = 1;; ++block) {
        if (!read_block(fd, buf, b.block_size)) {
            print_error(prog, "read(" + b.source + "): " + std::strerror(errno));
            return ::close(fd), kNotSent;
        }
        bool last = buf.size() < b.block_size; // end of file (a full block may be the last)
        auto msg = block_message(b, *g.cred, st, block, offset, buf, last);
        if (int rc = all_written(net::forward_and_wait(resolve, nodes, width, timeout, msg,
                                                       net::socket_signer(conf)),
                                 prog))
            return ::close(fd), rc;
        offset += buf.size();
        if (last) break;
    }
    ::close(fd);
    return 0;
}

} // namespace drover::cli
