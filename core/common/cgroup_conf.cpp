// cgroup_conf.cpp - cgroup.conf: the keys proctrack/cgroup acts on, checked where they are written.
#include "common/cgroup_conf.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"

namespace drover {

namespace {

using detail::ConfPair;

constexpr double kMaxPercent = 10000.0;

// "100", "101.5": digits with at most one '.' between digits, above 0 and at most kMaxPercent.
double parse_percent(const std::string &loc, const ConfPair &p) {
    std::string_view s = detail::trim(p.value);
    const char *expected = "expected a percentage above 0, such as 100 or 101.5";
    std::size_t dot = s.find('.');
    auto digits = [](std::string_view d) {
        return !d.empty() && d.find_first_not_of("0123456789") == std::string_view::npos;
    };
    bool ok = dot == std::string_view::npos ? digits(s)
                                            : digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
    double v = 0;
    if (!ok || std::from_chars(s.data(), s.data() + s.size(), v).ec != std::errc() || v <= 0)
        detail::bad_value(loc, p, expected);
    if (v > kMaxPercent) detail::bad_value(loc, p, "expected a percentage of at most 10000");
    return v;
}

void set_bool(const std::string &loc, const ConfPair &p, bool &field, Config &conf) {
    field = detail::parse_bool(loc, p);
    conf.raw["cgroup." + p.lkey] = field ? "yes" : "no";
}

void apply(const std::string &loc, const ConfPair &p, Config &conf) {
    CgroupConf &c = conf.cgroup;
    const std::string &k = p.lkey;
    if (k == "cgroupmountpoint") {
        std::string_view v = detail::trim(p.value);
        if (v.empty() || v.front() != '/') detail::bad_value(loc, p, "expected an absolute path");
        while (v.size() > 1 && v.back() == '/') v.remove_suffix(1);
        c.mountpoint = std::string(v);
        conf.raw["cgroup." + k] = c.mountpoint;
    } else if (k == "cgroupplugin") {
        std::string v = detail::to_lower(detail::trim(p.value));
        if (v != "autodetect" && v != "cgroup/v1" && v != "cgroup/v2" && v != "disabled")
            detail::bad_value(loc, p, "expected autodetect, cgroup/v1, cgroup/v2 or disabled");
        c.plugin = v;
        conf.raw["cgroup." + k] = v;
    } else if (k == "constrainramspace") {
        set_bool(loc, p, c.constrain_ram_space, conf);
    } else if (k == "constrainswapspace") {
        set_bool(loc, p, c.constrain_swap_space, conf);
    } else if (k == "constraincores") {
        set_bool(loc, p, c.constrain_cores, conf);
    } else if (k == "constraindevices") {
        set_bool(loc, p, c.constrain_devices, conf);
    } else if (k == "allowedramspace") {
        c.allowed_ram_space = parse_percent(loc, p);
        conf.raw["cgroup." + k] = std::string(detail::trim(p.value));
    } else {
        bool first = conf.raw.find("cgroup." + k) == conf.raw.end();
        conf.raw["cgroup." + k] = p.value;
        if (first) conf.warnings.push_back(loc + ": " + p.key + " is not used by Drover, ignored");
    }
}

} // namespace

void parse_cgroup_conf(std::string_view text, const std::string &name, Config &conf) {
    conf.cgroup.path = name;
    detail::for_each_line(text, name, [&](std::string_view line, const std::string &loc) {
        for (const ConfPair &p : detail::split_pairs(line, loc)) apply(loc, p, conf);
    });
}

void load_cgroup_conf(const std::string &config_dir, Config &conf) {
    const std::string path = config_dir + "/cgroup.conf";
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return;
    std::string text, err;
    if (!detail::read_text_file(path, text, err)) throw ParseError(path + ": cannot read: " + err);
    parse_cgroup_conf(text, path, conf);
}

bool devices_constrained(const Config &conf) {
    return conf.proctrack_type == "proctrack/cgroup" && conf.cgroup.constrain_devices;
}

} // namespace drover
