// resources.cpp - CPU, memory and disk detection from sysconf, statvfs and /proc.
#include "noded/resources.hpp"

#include <ctime>
#include <filesystem>
#include <map>

#include "common/gres.hpp"
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace drover::noded {

Resources detect_resources(const std::string &tmp_fs) {
    Resources r;
    long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    r.cpus = cpus > 0 ? uint32_t(cpus) : 1;
    long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) r.real_memory_mb = uint64_t(pages) * uint64_t(page) >> 20;
    struct statvfs vfs {};
    if (::statvfs(tmp_fs.c_str(), &vfs) == 0)
        r.tmp_disk_mb = uint64_t(vfs.f_blocks) * vfs.f_frsize >> 20;
    struct sysinfo si {};
    if (::sysinfo(&si) == 0) r.boot_time = int64_t(::time(nullptr)) - si.uptime;
    struct utsname u {};
    if (::uname(&u) == 0) r.os = std::string(u.sysname) + " " + u.release;
    return r;
}

std::string detect_gres(const std::string &config_path, const std::string &node) {
    namespace fs = std::filesystem;
    fs::path path = fs::path(config_path).parent_path() / "gres.conf";
    std::error_code ec;
    if (!fs::exists(path, ec)) return {};
    GresConf conf = load_gres_conf(path.string());
    std::map<std::pair<std::string, std::string>, uint64_t> counts;
    for (const GresDevice &d : gres_for_this_node(conf, node)) {
        uint64_t n = d.count;
        if (!d.files.empty()) {
            n = 0;
            for (const auto &f : d.files) n += fs::exists(f, ec) ? 1 : 0;
        }
        counts[{d.name, d.type}] += n;
    }
    std::vector<GresCount> items;
    for (const auto &[key, n] : counts) items.push_back({key.first, key.second, n, {}});
    return format_gres(items);
}

} // namespace drover::noded
