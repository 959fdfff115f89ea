// sreport_fields.cpp - sreport's field tables, values and banners.
#include "cli/sreport_fields.hpp"

#include <cstdio>
#include <cstdlib>
#include <span>

#include "cli/field_layout.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

struct Def {
    const char *name;
    std::size_t min; // the shortest abbreviation Slurm takes
    const char *header;
    int width, per_width; // per_width: with -t SecPer, MinPer or HourPer
    const char *key;
    int tree_width = 0; // with Tree (AccountUtilizationByUser), when not 0
};

// Slurm 23.11's cluster report fields, in the order it tries them: "planned" abbreviates
// PlannedDown before it can reach the Planned column, which Reserved names.
constexpr Def kClusterDefs[] = {
    {"Accounts", 2, "Account", 15, 15, "account", -20},
    {"allocated", 2, "Allocated", 12, 20, "allocated"},
    {"Cluster", 2, "Cluster", 9, 9, "cluster"},
    {"down", 1, "Down", 10, 18, "down"},
    {"idle", 1, "Idle", 12, 20, "idle"},
    {"Login", 1, "Login", 9, 9, "login"},
    {"overcommitted", 1, "Over Comm", 9, 18, "over"},
    {"PlannedDown", 2, "PLND Down", 10, 18, "planned_down"},
    {"Proper", 2, "Proper Name", 15, 15, "proper"},
    {"reported", 3, "Reported", 12, 20, "reported"},
    {"reserved", 3, "Planned", 9, 18, "planned"},
    {"planned", 2, "Planned", 9, 18, "planned"},
    {"TresCount", 5, "TRES Count", 10, 10, "count"},
    {"cpucount", 2, "TRES Count", 10, 10, "count"},
    {"count", 2, "TRES Count", 10, 10, "count"},
    {"TresName", 5, "TRES Name", 14, 14, "tresname"},
    {"Used", 1, "Used", 10, 18, "used"},
    {"WCKey", 2, "WCKey", 15, 15, "wckey", 20},
    {"Energy", 1, "Energy", 10, 18, "energy"},
};

constexpr Def kJobDefs[] = {
    {"Account", 1, "Account", 9, 9, "account"},
    {"Acct", 4, "Account", 9, 9, "account"},
    {"Cluster", 2, "Cluster", 9, 9, "cluster"},
    {"Duration", 1, "Duration", 12, 12, "duration"},
    {"JobCount", 2, "Job Count", 9, 9, "jobcount"},
    {"NodeCount", 2, "Node Count", 9, 9, "nodecount"},
    {"TresCount", 5, "TRES Count", 10, 10, "count"},
    {"CpuCount", 2, "TRES Count", 10, 10, "count"},
    {"count", 2, "TRES Count", 10, 10, "count"},
    {"User", 1, "User", 9, 9, "user"},
    {"Wckey", 1, "Wckey", 9, 9, "wckey"},
};

std::vector<SacctmgrField> parse_fields(const std::vector<std::string> &items,
                                        std::span<const Def> defs, bool per, bool tree,
                                        std::vector<std::string> &errors) {
    std::vector<SacctmgrField> out;
    for (const auto &item : items) {
        auto [name, width] = split_format_item(item);
        const Def *def = nullptr;
        for (const auto &d : defs)
            if (abbreviates(name, d.name, d.min)) {
                def = &d;
                break;
            }
        if (!def) {
            errors.push_back(" Unknown field '" + name + "'");
            continue;
        }
        if (!width)
            width = tree && def->tree_width ? def->tree_width : per ? def->per_width : def->width;
        out.push_back({def->header, width, def->key});
    }
    return out;
}

std::string printf_str(const char *fmt, double a, double b = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

} // namespace

std::vector<SacctmgrField> parse_cluster_format(const std::vector<std::string> &items, ReportTime t,
                                                bool tree, std::vector<std::string> &errors) {
    return parse_fields(items, kClusterDefs, per_format(t), tree, errors);
}

std::vector<SacctmgrField> parse_job_format(const std::vector<std::string> &items,
                                            std::vector<std::string> &errors) {
    return parse_fields(items, kJobDefs, false, false, errors);
}

std::string report_time_str(uint64_t value, uint64_t total, ReportTime t) {
    const double percent = double(value) / double(total ? total : 1) * 100;
    const double v = double(value);
    switch (t) {
    case ReportTime::seconds:
        return std::to_string(value);
    case ReportTime::hours:
        return printf_str("%.0f", v / 3600);
    case ReportTime::percent:
        return printf_str("%.2f%%", percent);
    case ReportTime::seconds_per:
        return std::to_string(value) + printf_str("(%.2f%%)", percent);
    case ReportTime::minutes_per:
        return printf_str("%.0f(%.2f%%)", v / 60, percent);
    case ReportTime::hours_per:
        return printf_str("%.0f(%.2f%%)", v / 3600, percent);
    default:
        return printf_str("%.0f", v / 60);
    }
}

int usage_col_width(uint64_t most, ReportTime t) {
    int width = 8;
    for (uint64_t order = 100000000; most >= order; order *= 10) {
        ++width;
        if (order > UINT64_MAX / 10) break;
    }
    return per_format(t) ? width + 9 : width;
}

void set_width(std::vector<SacctmgrField> &fields, const std::string &key, int width) {
    for (auto &f : fields)
        if (f.key == key) f.width = width;
}

std::string report_banner(const std::string &title, const std::string &units) {
    const std::string dashes(80, '-');
    return dashes + "\n" + title + "\n" + units + "\n" + dashes + "\n";
}

std::string usage_units(ReportTime t) {
    if (t == ReportTime::percent) return "Usage reported in Percentage of Total";
    return std::string("Usage reported in CPU ") + report_time_name(t);
}

} // namespace drover::cli
