// resources.cpp - CPU, memory and disk detection from sysconf, statvfs and /proc; generic
// resources from gres.conf and its AutoDetect (droverd -G prints them).
#include "noded/resources.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>

#include <spdlog/spdlog.h>
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

NodeGres find_node_gres(const std::string &config_path, const std::string &node,
                        const std::string &nvml_library) {
    namespace fs = std::filesystem;
    NodeGres out;
    out.conf_path = (fs::path(config_path).parent_path() / "gres.conf").string();
    std::error_code ec;
    out.has_conf = fs::exists(out.conf_path, ec);
    if (!out.has_conf) return out;
    GresConf conf = load_gres_conf(out.conf_path);
    out.warnings = conf.warnings;
    out.devices = gres_for_this_node(conf, node, "/dev", &out.warnings, nvml_library);
    for (GresDevice &d : out.devices) {
        if (d.files.empty()) continue;
        std::vector<std::string> present;
        for (std::string &f : d.files) {
            if (fs::exists(f, ec))
                present.push_back(std::move(f));
            else
                out.warnings.push_back("gres " + d.name + ": " + f +
                                       " does not exist; not counted");
        }
        d.files = std::move(present);
        d.count = d.files.size();
    }
    return out;
}

std::string detect_gres(const std::string &config_path, const std::string &node,
                        std::vector<std::string> *gpu_files, std::vector<std::string> *gpu_cores) {
    NodeGres found = find_node_gres(config_path, node);
    for (const std::string &w : found.warnings) spdlog::warn("{}", w);
    for (const GresDevice &d : found.devices) {
        if (d.name != "gpu") continue;
        // One entry per GPU index: a count-only line's GPUs have no file.
        if (gpu_files && d.files.empty()) gpu_files->insert(gpu_files->end(), d.count, "");
        if (gpu_files) gpu_files->insert(gpu_files->end(), d.files.begin(), d.files.end());
        if (gpu_cores) gpu_cores->insert(gpu_cores->end(), d.count, d.cores);
    }
    std::map<std::pair<std::string, std::string>, uint64_t> counts;
    for (const GresDevice &d : found.devices) counts[{d.name, d.type}] += d.count;
    std::vector<GresCount> items;
    for (const auto &[key, n] : counts) items.push_back({key.first, key.second, n, {}});
    return format_gres(items);
}

std::string denied_gpu_files(const std::vector<std::string> &gpu_files, const std::string &held) {
    std::vector<uint32_t> mine = gpu_index_list(held);
    std::string out;
    for (uint32_t i = 0; i < gpu_files.size(); ++i)
        if (!gpu_files[i].empty() && !std::binary_search(mine.begin(), mine.end(), i))
            out += (out.empty() ? "" : ",") + gpu_files[i];
    return out;
}

std::vector<std::string> gres_report_lines(const std::vector<GresDevice> &devices) {
    auto or_null = [](const std::string &s) { return s.empty() ? std::string("(null)") : s; };
    std::map<std::string, uint64_t> next_index;
    std::vector<std::string> lines;
    for (const GresDevice &d : devices) {
        std::string head = "Gres Name=" + d.name + " Type=" + or_null(d.type) + " Count=";
        std::string tail = " Cores=" + or_null(d.cores) + " UniqueId=" + or_null(d.unique_id);
        if (d.files.empty() && d.count > 0)
            lines.push_back(head + std::to_string(d.count) + " Index=(null) File=(null)" + tail);
        for (const std::string &f : d.files)
            lines.push_back(head + "1 Index=" + std::to_string(next_index[d.name]++) +
                            " File=" + f + tail);
    }
    return lines;
}

void print_node_gres(const std::string &config_path, const std::string &node, std::FILE *out,
                     std::FILE *err) {
    NodeGres found = find_node_gres(config_path, node);
    for (const std::string &w : found.warnings)
        std::fprintf(err, "droverd: warning: %s\n", w.c_str());
    if (!found.has_conf)
        std::fprintf(err, "droverd: no %s: node %s reports no generic resources\n",
                     found.conf_path.c_str(), node.c_str());
    for (const std::string &line : gres_report_lines(found.devices))
        std::fprintf(out, "%s\n", line.c_str());
}

} // namespace drover::noded
