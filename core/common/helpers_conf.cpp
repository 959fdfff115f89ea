// helpers_conf.cpp - helpers.conf's lines: changeable features, MutuallyExclusive, the times.
#include "common/helpers_conf.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"

namespace drover {

namespace {

using detail::ConfPair;

// One Feature line: NodeName= (optional, first), Feature=, Helper=, Flags=.
void feature_line(const std::string &loc, const std::vector<ConfPair> &pairs, HelpersConf &c) {
    HelperFeatures f;
    bool feature = false;
    for (const ConfPair &p : pairs) {
        if (p.lkey == "nodename") {
            if (p.value.empty()) detail::bad_value(loc, p, "a hostlist");
            try {
                (void)hostlist_expand(p.value);
            } catch (const ParseError &e) {
                detail::bad_value(loc, p, e.what());
            }
            f.nodes = p.value;
        } else if (p.lkey == "feature") {
            f.features = detail::split_list(p.value);
            feature = true;
        } else if (p.lkey == "helper") {
            f.helper = p.value;
        } else if (p.lkey != "flags") {
            throw ParseError(loc + ": unknown key '" + p.key + "' on a Feature line");
        }
    }
    if (!feature || f.features.empty())
        throw ParseError(loc + ": a Helper line needs Feature=<features>");
    if (f.helper.empty()) throw ParseError(loc + ": Feature= needs Helper=<program>");
    c.lines.push_back(std::move(f));
}

void setting(const std::string &loc, const ConfPair &p, HelpersConf &c) {
    if (p.lkey == "allowuserboot") {
        c.allow_user_boot = detail::split_list(p.value);
        if (c.allow_user_boot.size() == 1 && detail::iequals(c.allow_user_boot[0], "ALL"))
            c.allow_user_boot.clear();
    } else if (p.lkey == "boottime") {
        c.boot_time = detail::parse_u32(loc, p, 1);
    } else if (p.lkey == "exectime") {
        c.exec_time = detail::parse_u32(loc, p, 1);
    } else if (p.lkey == "mutuallyexclusive") {
        auto list = detail::split_list(p.value);
        if (list.size() < 2) detail::bad_value(loc, p, "two features or more");
        c.mutually_exclusive.push_back(std::move(list));
    } else {
        throw ParseError(loc + ": unknown key '" + p.key + "'");
    }
}

} // namespace

std::vector<std::string>
HelpersConf::changeable(const std::vector<std::string> &node_features) const {
    std::vector<std::string> out;
    for (const std::string &f : node_features)
        for (const HelperFeatures &l : lines)
            if (std::find(l.features.begin(), l.features.end(), f) != l.features.end()) {
                out.push_back(f);
                break;
            }
    return out;
}

std::string HelpersConf::conflict(const std::vector<std::string> &names) const {
    for (const auto &list : mutually_exclusive) {
        std::vector<std::string> hit;
        for (const std::string &n : names)
            if (std::find(list.begin(), list.end(), n) != list.end() &&
                std::find(hit.begin(), hit.end(), n) == hit.end())
                hit.push_back(n);
        if (hit.size() > 1) return hit[0] + "," + hit[1];
    }
    return {};
}

HelpersConf parse_helpers_conf(std::string_view text, const std::string &name) {
    HelpersConf c;
    c.path = name;
    detail::for_each_line(text, name, [&](std::string_view line, const std::string &loc) {
        std::vector<ConfPair> pairs = detail::split_pairs(line, loc);
        if (pairs.empty()) return;
        bool feature = std::any_of(pairs.begin(), pairs.end(), [](const ConfPair &p) {
            return p.lkey == "feature" || p.lkey == "helper" || p.lkey == "nodename";
        });
        if (feature) return feature_line(loc, pairs, c);
        for (const ConfPair &p : pairs) setting(loc, p, c);
    });
    return c;
}

bool helpers_plugin(const Config &conf) {
    auto it = conf.raw.find("nodefeaturesplugins");
    return it != conf.raw.end() && it->second.find("node_features/helpers") != std::string::npos;
}

HelpersConf load_helpers_conf(const Config &conf) {
    if (!helpers_plugin(conf)) return {};
    const std::string path =
        (std::filesystem::path(conf.path).parent_path() / "helpers.conf").string();
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return {};
    std::string text, err;
    if (!detail::read_text_file(path, text, err)) throw ParseError(path + ": cannot read: " + err);
    return parse_helpers_conf(text, path);
}

} // namespace drover
