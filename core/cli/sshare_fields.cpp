// sshare_fields.cpp - sshare's field table, number formats, tree names and lines.
#include "cli/sshare_fields.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

struct Def {
    const char *name; // also the header
    int width;
    ShareColumn column;
};

// Slurm 23.11's fields in its order: an item names the first one it abbreviates.
constexpr Def kDefs[] = {
    {"Account", -20, ShareColumn::account},
    {"Cluster", 10, ShareColumn::cluster},
    {"EffectvUsage", 13, ShareColumn::eff_usage},
    {"FairShare", 10, ShareColumn::fairshare},
    {"GrpTRESMins", 30, ShareColumn::grp_tres_mins},
    {"GrpTRESRaw", 30, ShareColumn::grp_tres_raw},
    {"ID", 6, ShareColumn::id},
    {"LevelFS", 10, ShareColumn::level_fs},
    {"NormShares", 11, ShareColumn::norm_shares},
    {"NormUsage", 11, ShareColumn::norm_usage},
    {"Partition", 12, ShareColumn::partition},
    {"RawShares", 10, ShareColumn::raw_shares},
    {"RawUsage", 11, ShareColumn::raw_usage},
    {"TRESRunMins", 30, ShareColumn::tres_run_mins},
    {"User", 10, ShareColumn::user},
};

// printf's "%*f" and "%*.*e" (a negative width left-justifies, a negative precision is none).
std::string print_f(int width, double v) {
    int n = std::snprintf(nullptr, 0, "%*f", width, v);
    std::string s(std::size_t(n > 0 ? n : 0), '\0');
    std::snprintf(s.data(), s.size() + 1, "%*f", width, v);
    return s;
}

std::string print_e(int width, int precision, double v) {
    int n = std::snprintf(nullptr, 0, "%*.*e", width, precision, v);
    std::string s(std::size_t(n > 0 ? n : 0), '\0');
    std::snprintf(s.data(), s.size() + 1, "%*.*e", width, precision, v);
    return s;
}

// The values print_fields leaves blank: NO_VAL, INFINITE and their 64-bit forms (both 2^64 as
// doubles); and NaN.
bool unset(double v) {
    return std::isnan(v) || v == 4294967294.0 || v == 4294967295.0 || v == 18446744073709551616.0;
}

// One value of a line: a string is cut to its column (ending in '+'), a number printed whole.
struct Cell {
    std::string text;
    bool cut = true;
};

Cell number(std::string text) {
    return {std::move(text), false};
}

// Slurm's names for the Account column (slurmdb_tree_name_get): an account one space deeper
// than its parent when the parent's line was printed before it, at the left otherwise; a user's
// line shows its account one space deeper than the account's line (at the left without one).
// The parent is the nearest line before at one level up, as the lines come in tree order.
class TreeNames {
  public:
    std::string name_of(const ShareLine &l) {
        while (!open_.empty() && open_.back().depth >= l.depth) open_.pop_back();
        const bool has_parent = !open_.empty() && open_.back().depth + 1 == l.depth &&
                                (l.user.empty() || open_.back().account == l.account);
        std::string spaces = has_parent ? open_.back().spaces + " " : "";
        if (l.user.empty()) open_.push_back({l.depth, l.account, spaces});
        return spaces + l.account;
    }

  private:
    struct Open {
        uint32_t depth;
        std::string account, spaces;
    };
    std::vector<Open> open_; // the printed accounts from the root down to the last one
};

Cell raw_shares(const ShareLine &l) {
    if (l.shares_raw == kSharesParent) return {"parent"};
    const bool root = l.user.empty() && l.depth == 0 && l.account == "root";
    if (l.shares_raw == kSharesUnset || root) return {""};
    return number(str_u(l.shares_raw));
}

// RawUsage: the decayed usage as Slurm's integer (the fraction dropped).
Cell raw_usage(double v) {
    if (unset(v) || v >= 18446744073709551616.0) return {""};
    return number(str_u(v < 1 ? 0 : static_cast<uint64_t>(v)));
}

Cell cell(const ShareField &f, const ShareLine &l, const ShareTable &t, FieldLayout layout,
          const std::string &account) {
    auto real = [&](double v) { return number(share_double(v, f.width, layout)); };
    const double none = std::nan("");
    switch (f.column) {
    case ShareColumn::account:
        return {account};
    case ShareColumn::cluster:
        return {l.cluster};
    case ShareColumn::eff_usage:
        return real(l.usage_eff);
    case ShareColumn::fairshare: // Fair Tree ranks users only
        return t.fair_tree && l.user.empty() ? Cell{""} : real(l.fairshare);
    case ShareColumn::grp_tres_mins:
        return {l.grp_tres_mins};
    case ShareColumn::level_fs:
        return l.shares_raw == kSharesParent ? Cell{""} : real(l.level_fs);
    case ShareColumn::norm_shares:
        return real(t.factors ? l.shares_norm : none);
    case ShareColumn::norm_usage:
        return real(t.factors ? l.usage_norm : none);
    case ShareColumn::partition:
        return {l.partition};
    case ShareColumn::raw_shares:
        return raw_shares(l);
    case ShareColumn::raw_usage:
        return raw_usage(l.usage_raw);
    case ShareColumn::tres_run_mins:
        return {l.tres_run_mins};
    case ShareColumn::user:
        return {l.user};
    default:
        return {""}; // ID, GrpTRESRaw: refused by parse_share_format
    }
}

// Appends a cell; a number wider than its column widens it instead of being cut.
void append_cell(std::string &out, const Cell &c, int width, bool last, FieldLayout layout) {
    const int len = static_cast<int>(c.text.size());
    if (!c.cut && len > std::abs(width)) width = width < 0 ? -len : len;
    append_field(out, c.text, width, last, layout, "|");
}

} // namespace

std::vector<std::string> share_default_format(bool fair_tree, bool long_format, bool partitions) {
    std::vector<std::string> f = {"A", "User"};
    if (partitions) f.push_back("P");
    for (const char *name : {"RawShares", "NormShares", "RawUsage"}) f.push_back(name);
    if (long_format) f.push_back("NormUsage");
    f.push_back("Eff");
    f.push_back("Fairshare");
    if (long_format && fair_tree) f.push_back("LevelFS");
    if (long_format) {
        f.push_back("GrpTRESMins");
        f.push_back("TRESRunMins");
    }
    return f;
}

std::vector<ShareField> parse_share_format(const std::vector<std::string> &items) {
    std::vector<ShareField> out;
    for (const auto &item : items) {
        auto [name, width] = split_format_item(item);
        const Def *def = nullptr;
        for (const auto &d : kDefs)
            if (istarts_with(d.name, name)) {
                def = &d;
                break;
            }
        if (!def) throw ParseError("Invalid field requested: \"" + name + "\"");
        if (def->column == ShareColumn::id || def->column == ShareColumn::grp_tres_raw)
            throw ParseError(std::string("the ") + def->name + " field is not supported by Drover");
        out.push_back({def->column, def->name, width ? width : def->width});
    }
    return out;
}

std::string share_help_format() {
    std::string out;
    std::size_t i = 0;
    for (const auto &d : kDefs) {
        if (i & 3)
            out += ' ';
        else if (i)
            out += '\n';
        std::string name = d.name;
        out += name + std::string(name.size() < 17 ? 17 - name.size() : 0, ' ');
        ++i;
    }
    return out + "\n";
}

std::string share_double(double value, int width, FieldLayout layout) {
    const int abs_len = std::abs(width);
    if (unset(value)) return layout == FieldLayout::fixed ? std::string(abs_len, ' ') : "";
    if (layout != FieldLayout::fixed) return print_f(0, value);
    const int sign = width < 0 ? -1 : 1;
    std::string f = print_f(abs_len, value);
    if (static_cast<int>(f.size()) <= abs_len) return print_f(sign * abs_len, value);
    // Too wide for "%f": "%e", its width and precision cut by what the exponent needs.
    int w = abs_len;
    const int e_len = static_cast<int>(print_e(w, w, value).size());
    if (e_len > w) w -= e_len - w;
    return print_e(width < 0 ? -std::abs(w) : w, w, value);
}

std::string render_shares(const ShareTable &table, const std::vector<ShareField> &fields,
                          const ShareView &view) {
    std::string out;
    if (view.header) {
        std::vector<std::string> names;
        std::vector<int> widths;
        for (const auto &f : fields) {
            names.push_back(f.header);
            widths.push_back(f.width);
        }
        append_header(out, names, widths, view.layout, "|");
    }
    TreeNames tree;
    for (const auto &l : table.lines) {
        if (view.users_only && l.user.empty()) continue;
        const std::string account = tree.name_of(l);
        for (std::size_t i = 0; i < fields.size(); ++i)
            append_cell(out, cell(fields[i], l, table, view.layout, account), fields[i].width,
                        i + 1 == fields.size(), view.layout);
    }
    return out;
}

} // namespace drover::cli
