// spool.cpp - record files, process identities and kept end reports under SlurmdSpoolDir.
//
// Nothing here is fsynced: it guards against droverd being killed, which loses nothing already
// written to the page cache. A machine that crashes loses its processes as well, and with them
// whatever the records would have said.
#include "noded/spool.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/config.hpp"

namespace fs = std::filesystem;

namespace drover::noded {

std::string node_spool(const Config &conf, const std::string &node) {
    return (fs::path(conf.slurmd_spool_dir) / node).string();
}

bool save_bytes(const std::string &path, std::span<const uint8_t> bytes) {
    std::string tmp = path + ".tmp";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += std::size_t(w);
    }
    bool ok = ::close(fd) == 0 && done == bytes.size();
    if (ok && ::rename(tmp.c_str(), path.c_str()) == 0) return true;
    ::unlink(tmp.c_str());
    return false;
}

std::optional<std::vector<uint8_t>> load_bytes(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return std::nullopt;
    std::vector<uint8_t> out((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return out;
}

bool save_fields(const std::string &path, const Fields &fields) {
    std::string text;
    for (const auto &[k, v] : fields) text += k + "=" + v + "\n";
    return save_bytes(path, {reinterpret_cast<const uint8_t *>(text.data()), text.size()});
}

Fields load_fields(const std::string &path) {
    Fields out;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        auto eq = line.find('=');
        if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return out;
}

uint64_t field_u64(const Fields &f, const std::string &key) {
    auto it = f.find(key);
    if (it == f.end()) return 0;
    return std::strtoull(it->second.c_str(), nullptr, 10);
}

namespace {

std::string read_boot_id() {
    std::ifstream f("/proc/sys/kernel/random/boot_id");
    std::string id;
    std::getline(f, id);
    return id;
}

} // namespace

std::optional<uint64_t> proc_stat_field(int32_t pid, int field) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    // The command name (field 2) may hold spaces and parentheses: count from after its last ')'.
    auto paren = stat.rfind(')');
    if (paren == std::string::npos || field < 3) return std::nullopt;
    std::istringstream in(stat.substr(paren + 1));
    std::string value;
    for (int i = 3; i <= field && in >> value; ++i)
        if (i == field) return std::strtoull(value.c_str(), nullptr, 10);
    return std::nullopt;
}

ProcessId identify(int32_t pid) {
    static const std::string boot = read_boot_id();
    uint64_t start = pid > 0 ? proc_stat_field(pid, 22).value_or(0) : 0; // start time, in ticks
    if (!start) return {};
    return {pid, start, boot};
}

bool still_running(const ProcessId &p) {
    if (p.pid <= 0) return false;
    ProcessId now = identify(p.pid);
    return now.pid == p.pid && now.start == p.start && now.boot == p.boot;
}

void put_process(Fields &f, const ProcessId &p) {
    f["pid"] = std::to_string(p.pid);
    f["pid_start"] = std::to_string(p.start);
    f["boot"] = p.boot;
}

ProcessId get_process(const Fields &f) {
    ProcessId p;
    p.pid = int32_t(field_u64(f, "pid"));
    p.start = field_u64(f, "pid_start");
    auto it = f.find("boot");
    if (it != f.end()) p.boot = it->second;
    return p;
}

void send_kept_report(const Tell &tell, const std::string &dir, std::vector<uint8_t> msg,
                      std::string what, std::function<void()> acked, bool already_kept) {
    if (!already_kept && !save_bytes(dir + "/end.msg", msg))
        spdlog::warn("{}: cannot keep its end report in {}: {}", what, dir, std::strerror(errno));
    tell(std::move(msg), std::move(what), 0, [dir, acked = std::move(acked)] {
        std::error_code ec;
        fs::remove_all(dir, ec);
        if (acked) acked();
    });
}

std::optional<std::vector<uint8_t>> kept_report(const std::string &dir) {
    return load_bytes(dir + "/end.msg");
}

std::vector<std::string> spool_entries(const std::string &node_dir, const std::string &prefix) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(node_dir, ec)) {
        std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && e.is_directory(ec)) out.push_back(e.path().string());
    }
    return out;
}

} // namespace drover::noded
