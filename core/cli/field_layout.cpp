// field_layout.cpp - print_fields' layouts.
#include "cli/field_layout.hpp"

#include <cstdlib>

#include "cli/text.hpp"

namespace drover::cli {

void append_field(std::string &out, std::string_view value, int width, bool last,
                  FieldLayout layout, std::string_view delimiter) {
    if (layout == FieldLayout::fixed) {
        out += fit_sacct(value, width);
    } else {
        out += value;
        if (layout == FieldLayout::parsable || !last) out += delimiter;
    }
    if (last) out += '\n';
}

void append_header(std::string &out, const std::vector<std::string> &names,
                   const std::vector<int> &widths, FieldLayout layout, std::string_view delimiter) {
    if (layout != FieldLayout::fixed) {
        for (std::size_t i = 0; i < names.size(); ++i)
            append_field(out, names[i], widths[i], i + 1 == names.size(), layout, delimiter);
        return;
    }
    // A header is cut to its column without the '+' a cut value gets, as print_fields does.
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::size_t w = std::size_t(widths[i] < 0 ? -widths[i] : widths[i]);
        std::string name = names[i].substr(0, w);
        std::string pad(w - name.size(), ' ');
        out += (widths[i] < 0 ? name + pad : pad + name) + " ";
    }
    out += "\n";
    for (int w : widths) out += std::string(std::size_t(w < 0 ? -w : w), '-') + " ";
    out += "\n";
}

FormatItem split_format_item(const std::string &item) {
    auto pct = item.find('%');
    if (pct == std::string::npos) return {item, 0};
    return {item.substr(0, pct), std::atoi(item.c_str() + pct + 1)};
}

} // namespace drover::cli
