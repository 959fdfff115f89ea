// devices.cpp - stat(2) of the device files to deny, and bpf(2) for the cgroup v2 device filter.
#include "devices.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace drover::cgroup {

namespace {

int bpf(int cmd, bpf_attr &attr) {
    return static_cast<int>(::syscall(__NR_bpf, cmd, &attr, sizeof attr));
}

// The last non-empty line of the verifier's log, or "".
std::string last_line(const char *log) {
    std::string_view text(log);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    const size_t nl = text.rfind('\n');
    return std::string(nl == std::string_view::npos ? text : text.substr(nl + 1));
}

// Loads the program; its fd, or -1 with *why set (errno's text, and the verifier's last word
// when it refused the program).
int load(const std::vector<bpf_insn> &prog, std::string *why) {
    static const char license[] = "GPL";
    bpf_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
    attr.insns = reinterpret_cast<uintptr_t>(prog.data());
    attr.insn_cnt = static_cast<uint32_t>(prog.size());
    attr.license = reinterpret_cast<uintptr_t>(license);
    int fd = bpf(BPF_PROG_LOAD, attr);
    if (fd >= 0) return fd;
    const int e = errno;
    *why = std::strerror(e);
    if (e != EINVAL && e != EACCES) return -1;
    std::string log(4096, '\0'); // again, with the verifier's log, to say why
    attr.log_buf = reinterpret_cast<uintptr_t>(log.data());
    attr.log_size = static_cast<uint32_t>(log.size() - 1);
    attr.log_level = 1;
    fd = bpf(BPF_PROG_LOAD, attr);
    if (fd >= 0) return fd;
    if (std::string word = last_line(log.c_str()); !word.empty())
        *why += " (verifier: " + word + ")";
    return -1;
}

} // namespace

std::vector<Device> devices_of(Step s, std::string_view paths) {
    std::vector<Device> out;
    while (!paths.empty()) {
        const size_t comma = paths.find(',');
        const std::string path(paths.substr(0, comma));
        paths.remove_prefix(comma == std::string_view::npos ? paths.size() : comma + 1);
        if (path.empty()) continue;
        const std::string where = step_label(s) + ": ConstrainDevices: " + path;
        struct stat st {};
        if (path.front() != '/') throw Error(DROVER_EINVAL, where + ": not an absolute path");
        if (::stat(path.c_str(), &st) != 0) {
            const int e = errno;
            throw Error(DROVER_EINVAL, where + ": " + std::strerror(e));
        }
        if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
            throw Error(DROVER_EINVAL, where + ": not a device file");
        out.push_back({S_ISBLK(st.st_mode) ? 'b' : 'c', ::major(st.st_rdev), ::minor(st.st_rdev)});
    }
    return out;
}

void attach_device_filter(Step s, const std::string &dir, const std::vector<Device> &denied) {
    const std::string where = step_label(s) + ": ConstrainDevices: " + dir;
    std::string why;
    const int prog = load(device_filter(denied), &why);
    if (prog < 0) throw Error(DROVER_EIO, where + ": cannot load the device filter: " + why);
    const int cg = ::open(dir.c_str(), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (cg < 0) {
        const int e = errno;
        ::close(prog);
        throw Error(DROVER_EIO, where + ": cannot open: " + std::strerror(e));
    }
    bpf_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.target_fd = static_cast<uint32_t>(cg);
    attr.attach_bpf_fd = static_cast<uint32_t>(prog);
    attr.attach_type = BPF_CGROUP_DEVICE;
    attr.attach_flags = BPF_F_ALLOW_MULTI;
    const int rc = bpf(BPF_PROG_ATTACH, attr);
    const int e = errno;
    ::close(prog); // the attachment holds the program now
    ::close(cg);
    if (rc != 0)
        throw Error(DROVER_EIO, where + ": cannot attach the device filter: " + std::strerror(e));
}

std::string probe_device_filter() {
    std::string why;
    const int prog = load(device_filter({}), &why);
    if (prog < 0) return why;
    ::close(prog);
    return {};
}

} // namespace drover::cgroup
