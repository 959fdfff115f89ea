// resv_text.cpp - reservation flags, scontrol show reservation and sinfo -T, as Slurm prints them.
#include "cli/resv_text.hpp"

#include <algorithm>
#include <string_view>

#include "cli/text.hpp"
#include "common/resv_flags.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;

// An end of 0 is a reservation that never ends: it has no end time to show.
std::string end_text(const proto::ReservationInfo &r) {
    return r.end_time() ? format_timestamp(r.end_time()) : std::string("Unknown");
}

// Joins a record's lines the way scontrol does.
std::string record(const std::vector<std::string> &lines, bool one_liner) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i) out += one_liner ? " " : "\n   ";
        out += lines[i];
    }
    return out + (one_liner ? "\n" : "\n\n");
}

// One sinfo -T line: the name left-justified in width (never cut), then the state, times and
// duration right-justified in 8, 19, 19 and 11 columns, two spaces apart, then the nodes.
std::string table_line(std::string_view name, std::string_view state, std::string_view start,
                       std::string_view end, std::string_view duration, std::string_view nodes,
                       int width) {
    return fit(name, width, false, false) + "  " + fit(state, 8, true, false) + "  " +
           fit(start, 19, true, false) + "  " + fit(end, 19, true, false) + "  " +
           fit(duration, 11, true, false) + "  " + std::string(nodes) + "\n";
}

} // namespace

bool resv_active(const proto::ReservationInfo &r, int64_t now) {
    return r.start_time() <= now && (r.end_time() == 0 || now <= r.end_time());
}

std::string resv_duration(const proto::ReservationInfo &r) {
    if (r.end_time() == 0) return "UNLIMITED";
    if (r.end_time() < r.start_time()) return "N/A";
    return format_elapsed_hms(r.end_time() - r.start_time());
}

std::string show_reservation(const proto::ReservationInfo &r, int64_t now, bool one_liner) {
    std::vector<std::string> l;
    l.push_back("ReservationName=" + std::string(sv(r.name())) +
                " StartTime=" + format_timestamp(r.start_time()) + " EndTime=" + end_text(r) +
                " Duration=" + resv_duration(r));
    // Flags with none set is an empty value, not (null), as Slurm prints it.
    l.push_back("Nodes=" + or_null(sv(r.node_list())) + " NodeCnt=" + str_u(r.node_count()) +
                " CoreCnt=" + str_u(r.core_count()) + " Features=" + or_null(sv(r.features())) +
                " PartitionName=" + or_null(sv(r.partition())) +
                " Flags=" + format_resv_flags(r.flags()));
    // Drover reserves whole nodes: the TRES is their CPUs (a reservation of licenses only has
    // none, and Slurm prints an empty TRES as (null)).
    l.push_back("TRES=" +
                (r.core_count() ? "cpu=" + str_u(r.core_count()) : std::string("(null)")));
    l.push_back("Users=" + or_null(sv(r.users())) + " Groups=(null) Accounts=" +
                or_null(sv(r.accounts())) + " Licenses=" + or_null(sv(r.licenses())) +
                " State=" + (resv_active(r, now) ? "ACTIVE" : "INACTIVE") + " BurstBuffer=(null)");
    l.push_back("MaxStartDelay=" + (r.max_start_delay_s()
                                        ? format_elapsed_hms(r.max_start_delay_s())
                                        : std::string("(null)")));
    return record(l, one_liner);
}

std::string sinfo_reservations(const std::vector<const proto::ReservationInfo *> &resvs,
                               int64_t now, bool header) {
    if (resvs.empty()) return "No reservations in the system\n";
    // The name column is as wide as the longest name (at least the header's 9). Slurm widens it
    // only when it prints the header: with -h every line uses 9.
    int width = 9;
    std::string out;
    if (header) {
        for (const auto *r : resvs) width = std::max(width, int(sv(r->name()).size()));
        out += table_line("RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST",
                          width);
    }
    for (const auto *r : resvs)
        out += table_line(sv(r->name()), resv_active(*r, now) ? "ACTIVE" : "INACTIVE",
                          format_timestamp(r->start_time()), end_text(*r), resv_duration(*r),
                          or_null(sv(r->node_list())), width);
    return out;
}

} // namespace drover::cli
