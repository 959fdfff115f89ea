// hostlist.cpp - expanding and compressing Slurm hostlist expressions ("n[01-16]", "a,b[1-3]").
#include "common/hostlist.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <unordered_map>

#include "common/error.hpp"

namespace drover {

namespace {

constexpr std::size_t kMaxDigits = 18; // a bracket number fits in uint64_t with room to spare

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

[[noreturn]] void fail(std::string_view expr, std::size_t pos, const std::string &what) {
    std::string shown(expr.substr(0, 80));
    if (expr.size() > 80) shown += "...";
    throw ParseError("bad hostlist '" + shown + "': " + what + " at position " +
                     std::to_string(pos + 1));
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

struct Range {
    uint64_t lo = 0;
    uint64_t hi = 0;
    std::size_t width = 0; // zero-pad to this many digits (0: as is)
};

// One piece of an element: literal text, or a bracket group of ranges.
struct Piece {
    std::string_view text;
    std::vector<Range> ranges;
    uint64_t count = 1;
    bool bracket = false;
};

void append_number(std::string &out, uint64_t v, std::size_t width) {
    char buf[24];
    std::size_t n = 0;
    do {
        buf[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (std::size_t i = n; i < width; ++i) out.push_back('0');
    while (n > 0) out.push_back(buf[--n]);
}

[[noreturn]] void too_many(std::string_view expr, std::size_t pos, std::size_t max) {
    fail(expr, pos, "more than " + std::to_string(max) + " names");
}

// Parses "1-3,07,9" (the inside of a bracket starting at expr[base]).
Piece parse_bracket(std::string_view expr, std::size_t base, std::string_view body,
                    std::size_t max) {
    Piece p;
    p.bracket = true;
    p.count = 0;
    std::size_t group_width = 0;
    std::size_t start = 0;
    bool first = true;
    while (true) {
        std::size_t comma = body.find(',', start);
        std::string_view item =
            trim(body.substr(start, comma == std::string_view::npos ? body.npos : comma - start));
        std::size_t at = base + start;
        if (item.empty()) fail(expr, at, "empty range in brackets");
        std::size_t dash = item.find('-');
        std::string_view lo_s = trim(item.substr(0, dash));
        std::string_view hi_s = dash == std::string_view::npos ? lo_s : trim(item.substr(dash + 1));
        for (std::string_view s : {lo_s, hi_s}) {
            if (s.empty()) fail(expr, at, "missing number in range '" + std::string(item) + "'");
            if (s.size() > kMaxDigits)
                fail(expr, at, "number too long in range '" + std::string(item) + "'");
            for (char c : s)
                if (!is_digit(c))
                    fail(expr, at, "not a number in range '" + std::string(item) + "'");
        }
        Range r;
        for (char c : lo_s) r.lo = r.lo * 10 + static_cast<uint64_t>(c - '0');
        for (char c : hi_s) r.hi = r.hi * 10 + static_cast<uint64_t>(c - '0');
        if (r.hi < r.lo) fail(expr, at, "range '" + std::string(item) + "' runs backwards");
        // Padding: a low bound written with leading zeros sets its width; the first range's width
        // carries to later numbers of the group written without them ("lx[0001-0002,7]" -> lx0007).
        bool padded = lo_s.size() > 1 && lo_s[0] == '0';
        if (first) group_width = padded ? lo_s.size() : 0;
        r.width = padded ? lo_s.size() : group_width;
        first = false;
        uint64_t n = r.hi - r.lo + 1;
        if (n > max || p.count + n > max) too_many(expr, at, max);
        p.count += n;
        p.ranges.push_back(r);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return p;
}

// Splits one element ("rack[1-2]-n[01-16]") into pieces; elem starts at expr[base].
std::vector<Piece> parse_element(std::string_view expr, std::size_t base, std::string_view elem,
                                 std::size_t max) {
    std::vector<Piece> pieces;
    std::size_t i = 0;
    while (i < elem.size()) {
        if (elem[i] == '[') {
            std::size_t close = elem.find(']', i + 1);
            if (close == std::string_view::npos) fail(expr, base + i, "unbalanced '['");
            pieces.push_back(
                parse_bracket(expr, base + i + 1, elem.substr(i + 1, close - i - 1), max));
            i = close + 1;
        } else {
            std::size_t open = elem.find('[', i);
            std::size_t end = open == std::string_view::npos ? elem.size() : open;
            Piece p;
            p.text = elem.substr(i, end - i);
            pieces.push_back(p);
            i = end;
        }
    }
    return pieces;
}

void generate(const std::vector<Piece> &pieces, std::size_t k, std::string &name,
              std::vector<std::string> &out) {
    if (k == pieces.size()) {
        out.push_back(name);
        return;
    }
    const Piece &p = pieces[k];
    std::size_t keep = name.size();
    if (!p.bracket) {
        name.append(p.text);
        generate(pieces, k + 1, name, out);
    } else {
        for (const Range &r : p.ranges) {
            for (uint64_t v = r.lo;; ++v) {
                name.resize(keep);
                append_number(name, v, r.width);
                generate(pieces, k + 1, name, out);
                if (v == r.hi) break;
            }
        }
    }
    name.resize(keep);
}

} // namespace

std::vector<std::string> hostlist_expand(std::string_view expr) {
    return hostlist_expand(expr, kHostlistMax);
}

std::vector<std::string> hostlist_expand(std::string_view expr, std::size_t max) {
    max = std::min(max, kHostlistMax);
    // Pass 1: split at top-level commas and whitespace, checking brackets and counting names.
    struct Elem {
        std::vector<Piece> pieces;
    };
    std::vector<Elem> elems;
    std::size_t total = 0;
    if (trim(expr).empty()) return {};

    std::size_t chunk_start = 0;
    int depth = 0;
    auto take_chunk = [&](std::size_t end) {
        std::string_view chunk = expr.substr(chunk_start, end - chunk_start);
        if (trim(chunk).empty()) fail(expr, chunk_start, "empty name");
        // Whitespace at depth 0 also separates names ("a b,c").
        std::size_t i = 0;
        while (i < chunk.size()) {
            while (i < chunk.size() && is_space(chunk[i])) ++i;
            if (i == chunk.size()) break;
            std::size_t j = i;
            int d = 0;
            while (j < chunk.size() && (d > 0 || !is_space(chunk[j]))) {
                if (chunk[j] == '[') ++d;
                if (chunk[j] == ']') --d;
                ++j;
            }
            Elem e{parse_element(expr, chunk_start + i, chunk.substr(i, j - i), max)};
            uint64_t n = 1;
            for (const Piece &p : e.pieces) {
                if (p.count > max / n) too_many(expr, chunk_start + i, max);
                n *= p.count;
            }
            if (n > max - total) too_many(expr, chunk_start + i, max);
            total += n;
            elems.push_back(std::move(e));
            i = j;
        }
    };
    for (std::size_t i = 0; i < expr.size(); ++i) {
        char c = expr[i];
        if (c == '[') {
            if (depth > 0) fail(expr, i, "nested '['");
            depth = 1;
        } else if (c == ']') {
            if (depth == 0) fail(expr, i, "unbalanced ']'");
            depth = 0;
        } else if (c == ',' && depth == 0) {
            take_chunk(i);
            chunk_start = i + 1;
        }
    }
    if (depth > 0) fail(expr, expr.rfind('['), "unbalanced '['");
    take_chunk(expr.size());

    // Pass 2: generate.
    std::vector<std::string> out;
    out.reserve(total);
    std::string name;
    for (const Elem &e : elems) generate(e.pieces, 0, name, out);
    return out;
}

namespace {

// A name as compression sees it: a prefix and a number (written with leading zeros to width
// digits; 0: as is), or, without a numeric suffix, a name kept as it is.
struct NameParts {
    std::string_view prefix;
    std::size_t width = 0;
    uint64_t num = 0;
    bool numbered = false;
    std::size_t digits = 0; // as written
};

NameParts split_name(std::string_view n) {
    std::size_t k = n.size();
    while (k > 0 && is_digit(n[k - 1])) --k;
    std::size_t digits = n.size() - k;
    if (digits == 0 || digits > kMaxDigits) return {n, 0, 0, false, 0};
    NameParts p{n.substr(0, k), digits > 1 && n[k] == '0' ? digits : 0, 0, true, digits};
    for (std::size_t i = k; i < n.size(); ++i) p.num = p.num * 10 + uint64_t(n[i] - '0');
    return p;
}

// The names split, each numbered one without leading zeros given the padding of its prefix's
// padded names when it is written the same with it: n10 beside n08 and n09 is n10 of width 2,
// n100 beside n001..n099 of width 3, so that "n[08-12]" and "n[001-128]" stay one bracket, as
// Slurm writes them. A prefix with two paddings (n01 and n001) leaves its names as they are.
std::vector<NameParts> split_names(const std::vector<std::string> &names) {
    std::vector<NameParts> parts;
    std::unordered_map<std::string_view, std::size_t> padding; // prefix -> width; npos: several
    for (const std::string &n : names) {
        if (n.empty()) continue;
        parts.push_back(split_name(n));
        const NameParts &p = parts.back();
        if (!p.width) continue;
        auto [it, fresh] = padding.try_emplace(p.prefix, p.width);
        if (!fresh && it->second != p.width) it->second = std::string::npos;
    }
    for (NameParts &p : parts) {
        if (!p.numbered || p.width) continue;
        auto it = padding.find(p.prefix);
        if (it != padding.end() && it->second != std::string::npos && p.digits >= it->second)
            p.width = it->second;
    }
    return parts;
}

// prefix and nums as one expression: "n7", or "n[1-3,5]" with runs that ascend by one, in the
// order given, as ranges.
void append_group(std::string &out, std::string_view prefix, std::size_t width,
                  const std::vector<uint64_t> &nums) {
    out.append(prefix);
    if (nums.size() == 1) return append_number(out, nums[0], width);
    out.push_back('[');
    for (std::size_t i = 0; i < nums.size();) {
        std::size_t j = i;
        while (j + 1 < nums.size() && nums[j + 1] == nums[j] + 1) ++j;
        if (i > 0) out.push_back(',');
        append_number(out, nums[i], width);
        if (j > i) {
            out.push_back('-');
            append_number(out, nums[j], width);
        }
        i = j + 1;
    }
    out.push_back(']');
}

} // namespace

std::string hostlist_compress(const std::vector<std::string> &names) {
    struct Group {
        std::string_view prefix;
        std::size_t width = 0; // digits when written with leading zeros, else 0
        std::vector<uint64_t> nums;
    };
    // Entries in order of first appearance: a group index, or a name kept as is (~index).
    std::vector<std::size_t> entries;
    std::vector<Group> groups;
    std::vector<std::string_view> literals;
    std::unordered_map<std::string, std::size_t> index;
    std::string key;
    for (const NameParts &p : split_names(names)) {
        if (!p.numbered) {
            entries.push_back(~literals.size());
            literals.push_back(p.prefix);
            continue;
        }
        key.assign(p.prefix);
        key.push_back('\0');
        key.append(std::to_string(p.width));
        auto [it, fresh] = index.try_emplace(key, groups.size());
        if (fresh) {
            groups.push_back(Group{p.prefix, p.width, {}});
            entries.push_back(it->second);
        }
        groups[it->second].nums.push_back(p.num);
    }

    std::string out;
    for (std::size_t e : entries) {
        if (!out.empty()) out.push_back(',');
        if (e >= groups.size()) { // ~index of a name kept as is
            out.append(literals[~e]);
            continue;
        }
        Group &g = groups[e];
        std::sort(g.nums.begin(), g.nums.end());
        append_group(out, g.prefix, g.width, g.nums);
    }
    return out;
}

std::string hostlist_ranged(const std::vector<std::string> &names, bool sorted) {
    std::vector<NameParts> parts = split_names(names);
    if (sorted)
        std::stable_sort(parts.begin(), parts.end(), [](const NameParts &a, const NameParts &b) {
            return std::tie(a.prefix, a.numbered, a.width, a.num) <
                   std::tie(b.prefix, b.numbered, b.width, b.num);
        });
    std::string out;
    std::vector<uint64_t> nums;
    for (std::size_t i = 0; i < parts.size();) {
        if (!out.empty()) out.push_back(',');
        const NameParts &p = parts[i];
        if (!p.numbered) {
            out.append(p.prefix);
            ++i;
            continue;
        }
        // The names after it with its prefix and padding join its bracket.
        nums.clear();
        std::size_t j = i;
        for (; j < parts.size() && parts[j].numbered && parts[j].prefix == p.prefix &&
               parts[j].width == p.width;
             ++j)
            nums.push_back(parts[j].num);
        append_group(out, p.prefix, p.width, nums);
        i = j;
    }
    return out;
}

std::string compress_counts(const std::vector<uint32_t> &counts) {
    std::string out;
    for (std::size_t i = 0; i < counts.size();) {
        std::size_t j = i;
        while (j < counts.size() && counts[j] == counts[i]) ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(counts[i]);
        if (j - i > 1) out += "(x" + std::to_string(j - i) + ")";
        i = j;
    }
    return out;
}

} // namespace drover
