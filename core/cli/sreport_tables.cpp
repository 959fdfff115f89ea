// sreport_tables.cpp - banners, headers and lines of the utilization, association and size
// reports.
#include "cli/sreport_tables.hpp"

#include <pwd.h>

#include <algorithm>

#include "cli/sreport_fields.hpp"
#include "cli/text.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

// "2026-11-26T00:00:00 - 2026-11-26T23:59:59": the window's first and last second.
std::string period(ReportWindow w) {
    return format_timestamp(w.start) + " - " + format_timestamp(w.end - 1);
}

std::string period_secs(ReportWindow w) {
    return period(w) + " (" + std::to_string(w.end - w.start) + " secs)";
}

std::vector<const ClusterData *> by_name(const std::vector<ClusterData> &clusters) {
    std::vector<const ClusterData *> out;
    for (const auto &c : clusters) out.push_back(&c);
    std::sort(out.begin(), out.end(),
              [](const ClusterData *a, const ClusterData *b) { return a->name < b->name; });
    return out;
}

SacctmgrRow utilization_row(const ClusterData &c, ReportWindow w, ReportTime t) {
    const ClusterUsage &u = c.usage;
    const uint64_t total = u.reported();
    const uint64_t possible = uint64_t(w.end - w.start) * u.cpus;
    return {{"cluster", c.name},
            {"count", std::to_string(u.cpus)},
            {"tresname", "cpu"},
            {"allocated", report_time_str(u.alloc, total, t)},
            {"down", report_time_str(u.down, total, t)},
            {"planned_down", report_time_str(u.planned_down, total, t)},
            {"idle", report_time_str(u.idle, total, t)},
            {"planned", report_time_str(u.planned, total, t)},
            {"over", report_time_str(u.over, total, t)},
            {"reported", report_time_str(total, possible, t)},
            {"energy", report_time_str(0, 0, t)}};
}

// Slurm sizes each usage column from the largest value in it (Energy from Allocated).
void utilization_widths(std::vector<SacctmgrField> &fields,
                        const std::vector<const ClusterData *> &clusters, ReportTime t) {
    ClusterUsage most;
    uint64_t reported = 0;
    for (const auto *c : clusters) {
        const ClusterUsage &u = c->usage;
        most.alloc = std::max(most.alloc, u.alloc);
        most.down = std::max(most.down, u.down);
        most.planned_down = std::max(most.planned_down, u.planned_down);
        most.idle = std::max(most.idle, u.idle);
        most.planned = std::max(most.planned, u.planned);
        most.over = std::max(most.over, u.over);
        reported = std::max(reported, u.reported());
    }
    set_width(fields, "allocated", usage_col_width(most.alloc, t));
    set_width(fields, "down", usage_col_width(most.down, t));
    set_width(fields, "planned_down", usage_col_width(most.planned_down, t));
    set_width(fields, "idle", usage_col_width(most.idle, t));
    set_width(fields, "planned", usage_col_width(most.planned, t));
    set_width(fields, "over", usage_col_width(most.over, t));
    set_width(fields, "reported", usage_col_width(reported, t));
    set_width(fields, "energy", usage_col_width(most.alloc, t));
}

} // namespace

std::vector<std::string> default_format(ReportKind kind) {
    switch (kind) {
    case ReportKind::utilization:
        return {"Cl", "al", "d", "planned", "i", "res", "rep"};
    case ReportKind::account_by_user:
        return {"Cluster", "Ac", "Login", "Proper", "Used", "Energy"};
    case ReportKind::user_by_account:
        return {"Cluster", "Login", "Proper", "Ac", "Used", "Energy"};
    default:
        return {"Cl", "a"};
    }
}

std::string utilization_report(const std::vector<ClusterData> &clusters, const ReportRequest &r,
                               const ReportStyle &s, std::vector<std::string> &errors) {
    std::string out;
    if (s.header)
        out = report_banner("Cluster Utilization " + period(r.window), usage_units(s.time));
    auto fields = parse_cluster_format(r.format.empty() ? default_format(r.kind) : r.format, s.time,
                                       false, errors);
    std::vector<const ClusterData *> shown;
    for (const auto *c : by_name(clusters))
        if (c->usage.cpus) shown.push_back(c);
    utilization_widths(fields, shown, s.time);
    std::vector<SacctmgrRow> rows;
    for (const auto *c : shown) rows.push_back(utilization_row(*c, r.window, s.time));
    return out + render_sacctmgr(fields, rows, s.layout, s.header);
}

std::string assoc_report(const std::vector<ClusterData> &clusters, const ReportRequest &r,
                         const ReportStyle &s, std::vector<std::string> &errors) {
    const bool by_account = r.kind == ReportKind::account_by_user;
    auto fields = parse_cluster_format(r.format.empty() ? default_format(r.kind) : r.format, s.time,
                                       by_account && r.tree, errors);
    std::string out;
    if (s.header)
        out = report_banner(
            std::string(by_account ? "Cluster/Account/User" : "Cluster/User/Account") +
                " Utilization " + period_secs(r.window),
            usage_units(s.time));
    uint64_t most = 0; // Slurm sizes Used from each cluster's first line
    for (const auto &c : clusters)
        if (!c.rows.empty()) most = std::max(most, c.rows.front().used);
    set_width(fields, "used", usage_col_width(most, s.time));
    set_width(fields, "energy", usage_col_width(0, s.time));
    std::vector<SacctmgrRow> rows;
    for (const auto *c : by_name(clusters))
        for (const auto &a : c->rows)
            rows.push_back({{"cluster", c->name},
                            {"account", a.shown},
                            {"login", a.user},
                            {"proper", a.user.empty() ? "" : proper_name(a.user)},
                            {"tresname", "cpu"},
                            {"used", report_time_str(a.used, c->usage.reported(), s.time)},
                            {"energy", report_time_str(0, 0, s.time)}});
    return out + render_sacctmgr(fields, rows, s.layout, s.header);
}

std::string sizes_report(const std::vector<ClusterData> &clusters, const std::vector<SizeBin> &bins,
                         const ReportRequest &r, const ReportStyle &s,
                         std::vector<std::string> &errors) {
    auto fields = parse_job_format(r.format.empty() ? default_format(r.kind) : r.format, errors);
    for (std::size_t b = 0; b < bins.size(); ++b)
        fields.push_back({size_bin_header(bins[b], r.individual), per_format(s.time) ? 20 : 13,
                          "bin" + std::to_string(b)});
    fields.push_back({"% of cluster", 12, "share"});
    std::string out;
    if (s.header)
        out = report_banner("Job Sizes " + period_secs(r.window),
                            r.print_job_count
                                ? "Units are in number of jobs ran"
                                : std::string("Time reported in ") + report_time_name(s.time));
    std::vector<SacctmgrRow> rows;
    for (const auto *c : by_name(clusters))
        for (const auto &line : c->sizes.rows) {
            SacctmgrRow row = {{"cluster", c->name}, {"account", line.account}};
            for (std::size_t b = 0; b < bins.size(); ++b)
                row.emplace_back("bin" + std::to_string(b),
                                 r.print_job_count
                                     ? std::to_string(line.jobs[b])
                                     : report_time_str(line.secs[b], line.total_secs, s.time));
            row.emplace_back(
                "share",
                r.print_job_count
                    ? report_time_str(line.total_jobs, c->sizes.cluster_jobs, ReportTime::percent)
                    : report_time_str(line.total_secs, c->sizes.cluster_secs, ReportTime::percent));
            rows.push_back(std::move(row));
        }
    return out + render_sacctmgr(fields, rows, s.layout, s.header);
}

std::string proper_name(const std::string &user) {
    struct passwd pw, *found = nullptr;
    char buf[4096];
    if (getpwnam_r(user.c_str(), &pw, buf, sizeof buf, &found) != 0 || !found || !pw.pw_gecos)
        return "";
    for (const auto &part : split(pw.pw_gecos, ','))
        if (!part.empty()) return part;
    return pw.pw_gecos; // only commas, or nothing: as Slurm, the whole of it
}

} // namespace drover::cli
