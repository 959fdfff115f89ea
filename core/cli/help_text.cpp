// help_text.cpp - reading a command's --help text back as usage lines, option entries and rest.
#include "cli/help_text.hpp"

#include <cctype>

namespace drover::cli {

namespace {

std::size_t indent_of(std::string_view line) {
    std::size_t n = 0;
    while (n < line.size() && line[n] == ' ') ++n;
    return n;
}

// "-t, --states=states      text" -> the option part and the text (after 2+ spaces, or after
// ": " as in "-h or --help: equivalent to ...").
HelpEntry split_entry(std::string_view body) {
    std::size_t gap = body.find("  ");
    std::size_t colon = body.find(": ");
    if (gap == std::string_view::npos && colon != std::string_view::npos) gap = colon + 1;
    if (gap == std::string_view::npos) return {std::string(body), {}};
    std::string_view text = body.substr(gap);
    text.remove_prefix(indent_of(text));
    std::string_view spelled = body.substr(0, gap);
    if (spelled.ends_with(':')) spelled.remove_suffix(1);
    return {std::string(spelled), std::string(text)};
}

} // namespace

HelpText parse_help(std::string_view help) {
    HelpText out;
    std::size_t entry_indent = 0;
    bool in_usage = false, in_entry = false;
    while (!help.empty()) {
        std::size_t nl = help.find('\n');
        std::string_view line = help.substr(0, nl);
        help.remove_prefix(nl == std::string_view::npos ? help.size() : nl + 1);
        std::size_t ind = indent_of(line);
        std::string_view body = line.substr(ind);
        if (body.starts_with("Usage:")) {
            out.usage.emplace_back(line);
            in_usage = true, in_entry = false;
        } else if (in_usage && ind > 0 && !body.empty() && !body.starts_with("-")) {
            out.usage.emplace_back(line);
        } else if (body.starts_with("-") && ind > 0) {
            out.entries.push_back(split_entry(body));
            entry_indent = ind, in_entry = true, in_usage = false;
        } else if (in_entry && ind > entry_indent && !body.empty()) {
            auto &d = out.entries.back().description;
            d += (d.empty() ? "" : " ") + std::string(body);
        } else {
            in_usage = in_entry = false;
            if (!body.empty()) out.other.emplace_back(line);
        }
    }
    return out;
}

bool entry_names(const HelpEntry &entry, const OptSpec &spec) {
    auto names = [&](const std::string &token) {
        std::size_t at = 0;
        while ((at = entry.spelled.find(token, at)) != std::string::npos) {
            std::size_t end = at + token.size();
            bool starts = at == 0 || entry.spelled[at - 1] == ' ' || entry.spelled[at - 1] == ',' ||
                          entry.spelled[at - 1] == '[';
            char next = end < entry.spelled.size() ? entry.spelled[end] : ' ';
            if (starts && !std::isalnum(static_cast<unsigned char>(next)) && next != '-' &&
                next != '_')
                return true;
            at = end;
        }
        return false;
    };
    if (spec.long_name && names(std::string("--") + spec.long_name)) return true;
    return spec.short_name && names(std::string("-") + spec.short_name);
}

} // namespace drover::cli
