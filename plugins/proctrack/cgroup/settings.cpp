// settings.cpp - cgroup.conf values and the node name, as the host hands them over.
#include "settings.hpp"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace drover::cgroup {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

bool flag(const drover::sdk::Host &host, const char *key, bool fallback) {
    auto v = host.conf(std::string("cgroup.") + key);
    if (!v) return fallback;
    if (iequals(*v, "yes") || iequals(*v, "true") || *v == "1") return true;
    if (iequals(*v, "no") || iequals(*v, "false") || *v == "0") return false;
    throw std::runtime_error(std::string("cgroup.conf: ") + key + "=" + std::string(*v) +
                             ": expected yes or no");
}

// A name that becomes one directory level.
void check_dir_name(const char *what, const std::string &name) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw std::runtime_error(std::string(what) + " name '" + name +
                                 "' cannot name a cgroup directory");
}

std::string short_hostname() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
    std::string name(buf);
    return name.substr(0, name.find('.'));
}

} // namespace

uint64_t Settings::memory_limit(uint64_t alloc_bytes) const {
    const long double v =
        std::floor(static_cast<long double>(alloc_bytes) * allowed_ram_percent / 100.0L);
    if (v >= 18446744073709551616.0L) // 2^64: exact in a long double
        return UINT64_MAX;
    return static_cast<uint64_t>(v);
}

Settings read_settings(const drover::sdk::Host &host) {
    Settings s;
    if (auto v = host.conf("cgroup.CgroupMountpoint"); v && !v->empty())
        s.mountpoint = std::string(*v);
    while (s.mountpoint.size() > 1 && s.mountpoint.back() == '/') s.mountpoint.pop_back();
    if (auto v = host.conf("cgroup.CgroupPlugin"); v && !v->empty()) {
        s.plugin.clear();
        for (char c : *v)
            s.plugin.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    s.constrain_ram = flag(host, "ConstrainRAMSpace", false);
    s.constrain_swap = flag(host, "ConstrainSwapSpace", false);
    s.constrain_cores = flag(host, "ConstrainCores", false);
    s.constrain_devices = flag(host, "ConstrainDevices", false);
    if (auto v = host.conf("cgroup.AllowedRAMSpace"); v && !v->empty()) {
        std::string text(*v);
        char *end = nullptr;
        double pct = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !(pct > 0))
            throw std::runtime_error("cgroup.conf: AllowedRAMSpace=" + text +
                                     ": expected a percentage above 0");
        s.allowed_ram_percent = pct;
    }
    // Two clusters may run on one host (with the same node names and job ids): the cluster's
    // name keeps their directories apart. Slurm lower-cases it, and so does the core.
    if (auto v = host.conf("ClusterName"); v && !v->empty()) {
        s.cluster.clear();
        for (char c : *v)
            s.cluster.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    if (auto v = host.conf("drover.node_name"); v && !v->empty())
        s.node = std::string(*v);
    else
        s.node = short_hostname();
    check_dir_name("cluster", s.cluster);
    check_dir_name("node", s.node);
    return s;
}

} // namespace drover::cgroup
