// sstat_fields.hpp - sstat's fields and its output layouts (fixed columns, -p, -P).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/usage.hpp"

namespace drover::cli {

struct SstatRow {
    std::string job_step; // "123.0"
    std::string node_list;
    std::vector<int32_t> pids;
    StepUsageSummary usage;
};

struct SstatField {
    std::string name; // canonical spelling
    int width = 10;
};

// Resolves "-o AveCPU,MaxRSS%12" (case-insensitive names, optional %width). Throws
// drover::ParseError("Invalid field requested: \"x\"") for an unknown name.
std::vector<SstatField> parse_sstat_format(std::string_view spec);
// The default field list, and every field for --helpformat.
std::string sstat_default_format();
std::string sstat_field_names();

// The table: a header and dashes unless noheader; parsable: '|' after each field (-p) or between
// them (-P).
std::string render_sstat(const std::vector<SstatField> &fields, const std::vector<SstatRow> &rows,
                         bool noheader, int parsable, char units);

} // namespace drover::cli
