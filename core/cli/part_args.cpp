// part_args.cpp - scontrol create/update partition arguments.
#include "cli/part_args.hpp"

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/partition_keys.hpp"

namespace drover::cli {

namespace {

// The pairs of the words, the name's among them (required).
PartFields parse_fields(std::span<const std::string> words) {
    PartFields out;
    bool named = false;
    for (const auto &w : words) {
        std::size_t eq = w.find('=');
        if (eq == std::string::npos) throw ParseError("Invalid input: " + w + "  Request aborted");
        std::string_view key = scontrol_partition_key(std::string_view(w).substr(0, eq));
        if (key.empty())
            throw ParseError("Update of this parameter is not supported: " + w +
                             "\nRequest aborted");
        named = named || key == "PartitionName";
        out.emplace_back(std::string(key), w.substr(eq + 1));
    }
    if (!named) throw ParseError("PartitionName must be given.");
    return out;
}

} // namespace

PartFields parse_part_update(std::span<const std::string> words) {
    PartFields out = parse_fields(words);
    if (out.size() <= 1) throw ParseError("No changes specified");
    return out;
}

PartFields parse_part_create(std::span<const std::string> words) {
    // "create partition PartitionName=x": the entity's word is not a setting.
    if (!words.empty() && words[0].find('=') == std::string::npos &&
        abbreviates(words[0], "PartitionName", 3))
        words = words.subspan(1);
    PartFields out = parse_fields(words);
    for (const auto &[key, value] : out)
        if (key == "PartitionName" && iequals(value, "default"))
            throw ParseError("PartitionName cannot be \"DEFAULT\".");
    return out;
}

} // namespace drover::cli
