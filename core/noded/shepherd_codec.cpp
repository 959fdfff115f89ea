// shepherd_codec.cpp - ShepherdSpec <-> bytes: little-endian 32-bit numbers, strings and lists
// each after their length.
#include "noded/shepherd_codec.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace drover::noded {

namespace {

class Writer {
  public:
    void num(int64_t v) {
        auto u = uint32_t(v);
        for (int i = 0; i < 4; ++i) out_.push_back(char((u >> (8 * i)) & 0xff));
    }
    void str(const std::string &s) {
        num(int64_t(s.size()));
        out_ += s;
    }
    template <class T, class F>
    void list(const std::vector<T> &v, F each) {
        num(int64_t(v.size()));
        for (const auto &x : v) each(x);
    }
    void strs(const std::vector<std::string> &v) {
        list(v, [this](const std::string &s) { str(s); });
    }
    template <class T>
    void nums(const std::vector<T> &v) {
        list(v, [this](T x) { num(int64_t(x)); });
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

class Reader {
  public:
    explicit Reader(std::string_view in) : in_(in) {}
    uint32_t num() {
        need(4);
        uint32_t u = 0;
        for (int i = 0; i < 4; ++i) u |= uint32_t(uint8_t(in_[std::size_t(i)])) << (8 * i);
        in_.remove_prefix(4);
        return u;
    }
    int fd() { return int32_t(num()); }
    bool flag() { return upto(1) != 0; }
    // A number that must be at most max (an enum's last value).
    uint32_t upto(uint32_t max) {
        uint32_t v = num();
        if (v > max) throw std::runtime_error("shepherd spec: value out of range");
        return v;
    }
    std::string str() {
        uint32_t n = num();
        need(n);
        std::string s(in_.substr(0, n));
        in_.remove_prefix(n);
        return s;
    }
    // A list's length, no more than the bytes left could hold (4 bytes an item at least).
    uint32_t count() {
        uint32_t n = num();
        need(std::size_t(n) * 4);
        return n;
    }
    std::vector<std::string> strs() {
        std::vector<std::string> v(count());
        for (auto &s : v) s = str();
        return v;
    }
    template <class T>
    std::vector<T> nums() {
        std::vector<T> v(count());
        for (auto &x : v) x = T(num());
        return v;
    }
    std::vector<std::vector<uint32_t>> lists() {
        std::vector<std::vector<uint32_t>> v(count());
        for (auto &l : v) l = nums<uint32_t>();
        return v;
    }
    bool done() const { return in_.empty(); }

  private:
    void need(std::size_t n) const {
        if (in_.size() < n) throw std::runtime_error("shepherd spec: cut short");
    }
    std::string_view in_;
};

void put_task(Writer &w, const ShepherdTask &t) {
    for (int64_t v : {int64_t(t.task_id), int64_t(t.local_id), int64_t(t.in_fd), int64_t(t.out_fd),
                      int64_t(t.err_fd), int64_t(t.pmi_fd)})
        w.num(v);
    for (const std::string *s : {&t.in_path, &t.out_path, &t.err_path, &t.note}) w.str(*s);
    w.strs(t.argv);
    w.strs(t.env);
    w.nums(t.cpus);
    w.nums(t.mems);
}

ShepherdTask get_task(Reader &r) {
    ShepherdTask t;
    t.task_id = r.num();
    t.local_id = r.num();
    for (int *fd : {&t.in_fd, &t.out_fd, &t.err_fd, &t.pmi_fd}) *fd = r.fd();
    for (std::string *s : {&t.in_path, &t.out_path, &t.err_path, &t.note}) *s = r.str();
    t.argv = r.strs();
    t.env = r.strs();
    t.cpus = r.nums<uint32_t>();
    t.mems = r.nums<uint32_t>();
    return t;
}

void put_binding(Writer &w, const CpuBind &c, const MemBind &m) {
    for (int64_t v : {int64_t(c.kind), int64_t(c.level), int64_t(c.verbose)}) w.num(v);
    w.list(c.lists, [&w](const std::vector<uint32_t> &l) { w.nums(l); });
    for (int64_t v : {int64_t(m.kind), int64_t(m.verbose), int64_t(m.prefer)}) w.num(v);
    w.list(m.lists, [&w](const std::vector<uint32_t> &l) { w.nums(l); });
}

void get_binding(Reader &r, CpuBind &c, MemBind &m) {
    c.kind = CpuBind::Kind(r.upto(CpuBind::mask_ldom));
    c.level = CpuBind::Level(r.upto(CpuBind::ldoms));
    c.verbose = r.flag();
    c.lists = r.lists();
    m.kind = MemBind::Kind(r.upto(MemBind::mask_mem));
    m.verbose = r.flag();
    m.prefer = r.flag();
    m.lists = r.lists();
}

} // namespace

std::string encode_shepherd_spec(const ShepherdSpec &s) {
    Writer w;
    for (int64_t v : {int64_t(s.job_id), int64_t(s.step_id), int64_t(s.user.uid),
                      int64_t(s.user.gid), int64_t(s.open_append), int64_t(s.status_fd),
                      int64_t(s.record_fd), int64_t(s.pty_fd), int64_t(s.batch)})
        w.num(v);
    for (const std::string *t : {&s.user.user, &s.work_dir, &s.prolog, &s.job_node_list, &s.node})
        w.str(*t);
    w.nums(s.user.groups);
    w.strs(s.argv);
    w.strs(s.env);
    w.list(s.tasks, [&w](const ShepherdTask &t) { put_task(w, t); });
    w.nums(s.drain_fds);
    put_binding(w, s.cpu_bind, s.mem_bind);
    w.strs(s.task_scripts.prologs);
    w.strs(s.task_scripts.epilogs);
    return w.take();
}

ShepherdSpec decode_shepherd_spec(std::string_view bytes) {
    Reader r(bytes);
    ShepherdSpec s;
    s.job_id = r.num();
    s.step_id = r.num();
    s.user.uid = r.num();
    s.user.gid = r.num();
    s.open_append = r.flag();
    for (int *fd : {&s.status_fd, &s.record_fd, &s.pty_fd}) *fd = r.fd();
    s.batch = r.flag();
    for (std::string *t : {&s.user.user, &s.work_dir, &s.prolog, &s.job_node_list, &s.node})
        *t = r.str();
    s.user.groups = r.nums<unsigned>();
    s.argv = r.strs();
    s.env = r.strs();
    s.tasks.resize(r.count());
    for (auto &t : s.tasks) t = get_task(r);
    s.drain_fds = r.nums<int>();
    get_binding(r, s.cpu_bind, s.mem_bind);
    s.task_scripts.prologs = r.strs();
    s.task_scripts.epilogs = r.strs();
    if (!r.done()) throw std::runtime_error("shepherd spec: bytes after its end");
    return s;
}

namespace {

std::string read_all(int fd) {
    std::string out;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buf, std::size_t(n));
    }
    return out;
}

} // namespace

void shepherd_main(int fd) {
    ShepherdSpec spec;
    try {
        spec = decode_shepherd_spec(read_all(fd));
    } catch (const std::exception &e) {
        std::string line = std::string("droverd: error: ") + e.what() + "\n";
        (void)!::write(2, line.data(), line.size());
        ::_exit(127);
    }
    ::close(fd);
    // The exec kept these open for the shepherd alone: the tasks it forks must not inherit them.
    for (int own : {spec.status_fd, spec.record_fd})
        if (own >= 0) ::fcntl(own, F_SETFD, FD_CLOEXEC);
    for (int own : spec.drain_fds) ::fcntl(own, F_SETFD, FD_CLOEXEC);
    run_shepherd(spec);
}

} // namespace drover::noded
