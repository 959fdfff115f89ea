// format_spec.hpp - squeue/sinfo output formats: "%.18i %.9P %j" (-o) and "JobID:10,Name" (-O).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace drover::cli {

struct FieldSpec {
    char type = 0;      // the letter of a -o field ('i', 'P', ...)
    std::string name;   // the name of a -O field ("JobID"), as written
    int width = 0;      // 0 = as wide as the value
    bool right = false; // "." given: right-justified
    bool hash = false;  // sinfo's "#": width found from the data
    std::string suffix; // literal text after the field, up to the next one
};

struct FormatSpec {
    std::string prefix; // literal text before the first field
    std::vector<FieldSpec> fields;
};

// Parses "%[.][size|#]type[suffix]..." ("%%" is a literal '%'). Throws drover::ParseError for
// a '%' with no type letter. The letters are not checked here.
FormatSpec parse_percent_format(std::string_view fmt);

// Parses "name[:[.][size][suffix]],..."; fields without a size get default_width.
// Throws drover::ParseError for an empty field name or a malformed size.
FormatSpec parse_long_format(std::string_view fmt, int default_width = 20);

// What one field shows: its text and whether a too-long value is cut to the width.
struct FieldValue {
    std::string text;
    bool cut = true;
};

// Renders one line (without the newline): the prefix, then each field fitted to its width and
// followed by its suffix.
std::string render_line(const FormatSpec &spec,
                        const std::function<FieldValue(const FieldSpec &)> &value_of);

} // namespace drover::cli
