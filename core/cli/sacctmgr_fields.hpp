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

// Each entity's default format (cluster, account, user, association).
std::vector<std::string> sacctmgr_default_format(std::string_view entity);

using SacctmgrRow = std::vector<std::pair<std::string, std::string>>;

std::string render_sacctmgr(const std::vector<SacctmgrField> &fields,
                            const std::vector<SacctmgrRow> &rows, FieldLayout layout, bool header);

} // namespace drover::cli
