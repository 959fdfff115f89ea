// sacctmgr_fields.hpp - sacctmgr show: its fields (Slurm's names, headers and widths), each
// entity's default format, and the table of rows the controller sends.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/field_layout.hpp"

namespace drover::cli {

struct SacctmgrField {
    std::string header;
    int width = 10;  // negative: left-justified
    std::string key; // the row's field, as the controller names it ("" : no data, blank)
};

// Parses format= items ("User", "acc%20", "Def%-12"); throws drover::ParseError("Unknown field
// 'X'") for a name Slurm does not know.
std::vector<SacctmgrField> parse_sacctmgr_format(const std::vector<std::string> &items);

// Each entity's default format (cluster, account, user, association, qos), as Slurm writes it.
std::vector<std::string> sacctmgr_default_format(std::string_view entity);

// Slurm's MaxJobs and MaxSubmit columns show one limit each: on a QOS the per-user one
// (maxjobsperuser, maxsubmitjobsperuser), elsewhere the association's own (maxjobs,
// maxsubmitjobs), whichever of the names (MaxJobs or MaxJobsPU, ...) the format used. Points
// those fields at the row key the entity has.
void sacctmgr_entity_keys(std::string_view entity, std::vector<SacctmgrField> &fields);

using SacctmgrRow = std::vector<std::pair<std::string, std::string>>;

std::string render_sacctmgr(const std::vector<SacctmgrField> &fields,
                            const std::vector<SacctmgrRow> &rows, FieldLayout layout, bool header);

} // namespace drover::cli
