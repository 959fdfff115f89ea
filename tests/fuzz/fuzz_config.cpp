// fuzz_config.cpp - fuzz target: parse_config on arbitrary text (Include off, so no file is read),
// checking that what loads is consistent; and the same text as cgroup.conf and helpers.conf.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/helpers_conf.hpp"

namespace {

// cgroup.conf: what parses holds only values proctrack/cgroup can use, every key under "cgroup.".
void check_cgroup_conf(std::string_view text) {
    drover::Config c;
    try {
        drover::parse_cgroup_conf(text, "cgroup.conf", c);
    } catch (const drover::ParseError &) {
        return;
    }
    const drover::CgroupConf &g = c.cgroup;
    if (!(g.allowed_ram_space > 0 && g.allowed_ram_space <= 10000)) std::abort();
    if (g.plugin != "autodetect" && g.plugin != "cgroup/v1" && g.plugin != "cgroup/v2" &&
        g.plugin != "disabled")
        std::abort();
    if (g.mountpoint.empty() || g.mountpoint[0] != '/') std::abort();
    for (const auto &[key, value] : c.raw)
        if (key.rfind("cgroup.", 0) != 0) std::abort();
    for (const char *flag : {"cgroup.constrainramspace", "cgroup.constraincores",
                             "cgroup.constrainswapspace", "cgroup.constraindevices"}) {
        auto it = c.raw.find(flag);
        if (it != c.raw.end() && it->second != "yes" && it->second != "no") std::abort();
    }
}

// helpers.conf: every Feature line has features and a Helper; the lists answer for any names.
void check_helpers_conf(std::string_view text) {
    drover::HelpersConf h;
    try {
        h = drover::parse_helpers_conf(text, "helpers.conf");
    } catch (const drover::ParseError &) {
        return;
    }
    std::vector<std::string> named;
    for (const auto &line : h.lines) {
        if (line.features.empty() || line.helper.empty()) std::abort();
        named.insert(named.end(), line.features.begin(), line.features.end());
    }
    for (const auto &list : h.mutually_exclusive)
        if (list.size() < 2) std::abort();
    if (h.changeable(named).size() != named.size()) std::abort(); // each is changeable
    (void)h.conflict(named);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 16)) return 0;
    std::string_view text(reinterpret_cast<const char *>(data), size);
    check_cgroup_conf(text);
    check_helpers_conf(text);
    drover::ConfigParseOptions opts;
    opts.allow_include = false;
    opts.max_nodes = 4096;
    drover::Config c;
    try {
        c = drover::parse_config(text, "fuzz.conf", "/nonexistent", opts);
    } catch (const drover::ParseError &) {
        return 0;
    }
    if (c.nodes.size() > opts.max_nodes) std::abort();
    for (const drover::NodeConf &n : c.nodes) {
        if (c.find_node(n.name) != &n) std::abort(); // names are unique and indexed
        if (n.cpus == 0 || n.name.empty() || c.node_addr(n).empty() || c.node_hostname(n).empty())
            std::abort();
    }
    for (const drover::PartitionConf &p : c.partitions) {
        if (c.find_partition(p.name) != &p) std::abort();
        for (uint32_t n : p.nodes)
            if (n >= c.nodes.size()) std::abort(); // partitions name only defined nodes
    }
    if (!c.partitions.empty() && c.default_partition() == nullptr) std::abort();
    (void)c.auth_option("socket");
    return 0;
}
