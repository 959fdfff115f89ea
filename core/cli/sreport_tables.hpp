// sreport_tables.hpp - the text of each report as Slurm's sreport prints it: the banner (unless
// -n), the header and the lines, in the fixed layout or -p / -P.
#pragma once

#include <string>
#include <vector>

#include "cli/field_layout.hpp"
#include "cli/sreport_args.hpp"
#include "cli/sreport_assoc.hpp"
#include "cli/sreport_sizes.hpp"
#include "cli/sreport_usage.hpp"

namespace drover::cli {

struct ReportStyle {
    FieldLayout layout = FieldLayout::fixed;
    bool header = true; // banner and header (-n: neither)
    ReportTime time = ReportTime::minutes;
};

// What one cluster contributes to a report.
struct ClusterData {
    std::string name;
    ClusterUsage usage;         // Utilization, and the base of the other reports' percentages
    std::vector<AssocRow> rows; // AccountUtilizationByUser, UserUtilizationByAccount
    SizeReport sizes;           // SizesByAccount
};

// The Format= fields a report uses when none are given, as Slurm writes them.
std::vector<std::string> default_format(ReportKind kind);

// Each adds Slurm's " Unknown field 'X'" lines to errors. The clusters come in name order; a
// cluster without CPUs (one whose nodes the controller does not know) has no Utilization line.
std::string utilization_report(const std::vector<ClusterData> &clusters, const ReportRequest &r,
                               const ReportStyle &s, std::vector<std::string> &errors);
std::string assoc_report(const std::vector<ClusterData> &clusters, const ReportRequest &r,
                         const ReportStyle &s, std::vector<std::string> &errors);
std::string sizes_report(const std::vector<ClusterData> &clusters, const std::vector<SizeBin> &bins,
                         const ReportRequest &r, const ReportStyle &s,
                         std::vector<std::string> &errors);

// A user's proper name as Slurm shows it: the passwd comment up to its first comma ("" when the
// user is unknown).
std::string proper_name(const std::string &user);

} // namespace drover::cli
