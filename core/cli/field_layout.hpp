// field_layout.hpp - the layouts Slurm's print_fields gives sacct and sacctmgr: fixed columns
// (right-justified to a width, left-justified for a negative one, a cut value ending in '+') under
// a header and a line of dashes; or values joined by a delimiter, which -p also puts at the end of
// each line and -P does not.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace drover::cli {

enum class FieldLayout { fixed, parsable, parsable2 };

// Appends one field of a line; last ends the line.
void append_field(std::string &out, std::string_view value, int width, bool last,
                  FieldLayout layout, std::string_view delimiter);

// A --format item "Name%width" split as print_fields reads it: the name, and atoi of what follows
// '%' (0 when there is no '%' or no number: the field keeps its own width).
struct FormatItem {
    std::string name;
    int width = 0;
};
FormatItem split_format_item(const std::string &item);

// Appends the header line and, in the fixed layout, the dashes under it.
void append_header(std::string &out, const std::vector<std::string> &names,
                   const std::vector<int> &widths, FieldLayout layout, std::string_view delimiter);

} // namespace drover::cli
