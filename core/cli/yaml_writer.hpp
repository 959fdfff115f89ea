// yaml_writer.hpp - --yaml output: the --json document rendered as YAML. Slurm's --yaml is its
// JSON data model serialized by libyaml in block style, so Drover's YAML is its JSON document
// converted: mappings and sequences in block style (a sequence under a key is not indented, as
// libyaml writes it), "%YAML 1.1" and "---" before it, "..." after it.
#pragma once

#include <string>
#include <string_view>

namespace drover::cli {

// The YAML rendering of a JSON document (as json_document() and JsonWriter write it). Numbers,
// true, false and null stay plain; strings are plain unless YAML would read them as something
// else or not at all (empty, "true", "null", "yes", "12", "1:30", "-x", "a: b", "#x", ...), then
// single-quoted, or double-quoted with escapes when they hold control characters. Throws
// drover::ParseError for text that is not JSON.
std::string yaml_from_json(std::string_view json);

// Whether s must be quoted to read back as the string s.
bool yaml_needs_quotes(std::string_view s);

// What a command prints for --json or --yaml: json as it is, or as YAML when yaml is set.
std::string json_or_yaml(const std::string &json, bool yaml);

} // namespace drover::cli
