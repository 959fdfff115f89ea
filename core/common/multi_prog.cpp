// multi_prog.cpp - parse --multi-prog files.
#include "common/multi_prog.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <string_view>

#include "common/error.hpp"

namespace drover {

namespace {

bool number(std::string_view s, uint32_t *out) {
    if (s.empty()) return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return ec == std::errc() && end == s.data() + s.size();
}

// A line's words: split on blanks, a word in single or double quotes kept whole (quotes dropped).
std::vector<std::string> words_of(const std::string &line) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i == line.size()) break;
        std::string w;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) {
            char q = line[i];
            if (q != '\'' && q != '"') {
                w.push_back(line[i++]);
                continue;
            }
            std::size_t end = line.find(q, i + 1);
            if (end == std::string::npos) end = line.size();
            w.append(line, i + 1, end - i - 1);
            i = std::min(end + 1, line.size());
        }
        words.push_back(std::move(w));
    }
    return words;
}

// An argument with %t (task id), %o (offset in its line) and %% (a '%') expanded.
std::string expand(const std::string &w, uint32_t task, uint32_t offset) {
    std::string a;
    for (std::size_t k = 0; k < w.size(); ++k) {
        char next = k + 1 < w.size() ? w[k + 1] : '\0';
        if (w[k] != '%' || (next != 't' && next != 'o' && next != '%')) {
            a += w[k];
            continue;
        }
        a += next == '%' ? "%" : std::to_string(next == 't' ? task : offset);
        ++k;
    }
    return a;
}

} // namespace

std::vector<std::vector<std::string>> parse_multi_prog(const std::string &text,
                                                       uint32_t num_tasks) {
    std::vector<std::vector<std::string>> out(num_tasks);
    std::vector<bool> set(num_tasks, false);
    std::istringstream in(text);
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        std::vector<std::string> words = words_of(line);
        if (words.empty() || words[0][0] == '#') continue;
        auto bad = [&](const std::string &why) {
            return ParseError("--multi-prog line " + std::to_string(line_no) + ": " + why);
        };
        if (words.size() < 2) throw bad("expected task ids and a program");
        std::vector<uint32_t> ids;
        if (words[0] == "*") {
            for (uint32_t t = 0; t < num_tasks; ++t)
                if (!set[t]) ids.push_back(t);
        } else {
            std::string_view list = words[0];
            while (true) {
                std::size_t comma = list.find(',');
                std::string_view part = list.substr(0, comma);
                std::size_t dash = part.find('-');
                uint32_t lo = 0, hi = 0;
                bool ok = number(part.substr(0, dash), &lo);
                hi = lo;
                if (ok && dash != std::string_view::npos) ok = number(part.substr(dash + 1), &hi);
                if (!ok || hi < lo) throw bad("invalid task ids '" + words[0] + "'");
                if (hi >= num_tasks)
                    throw bad("task " + std::to_string(hi) + " is beyond the step's " +
                              std::to_string(num_tasks) + " task(s)");
                for (uint32_t t = lo; t <= hi; ++t) ids.push_back(t);
                if (comma == std::string_view::npos) break;
                list = list.substr(comma + 1);
            }
        }
        uint32_t offset = 0;
        for (uint32_t t : ids) {
            if (set[t]) throw bad("task " + std::to_string(t) + " is given twice");
            set[t] = true;
            std::vector<std::string> argv;
            for (std::size_t i = 1; i < words.size(); ++i)
                argv.push_back(expand(words[i], t, offset));
            out[t] = std::move(argv);
            ++offset;
        }
    }
    for (uint32_t t = 0; t < num_tasks; ++t)
        if (!set[t]) throw ParseError("--multi-prog: no program for task " + std::to_string(t));
    return out;
}

} // namespace drover
