// dependency.cpp - parsing and printing job dependencies.
#include "ctld/jobs/dependency.hpp"

#include <charconv>

#include "common/error.hpp"

namespace drover::ctld {

namespace {

struct TypeName {
    std::string_view name;
    DepType type;
};
constexpr TypeName kTypes[] = {
    {"after", DepType::After},         {"afterany", DepType::AfterAny},
    {"afterok", DepType::AfterOk},     {"afternotok", DepType::AfterNotOk},
    {"aftercorr", DepType::AfterCorr}, {"singleton", DepType::Singleton},
};

std::string_view type_name(DepType t) {
    for (const auto &k : kTypes)
        if (k.type == t) return k.name;
    return "?";
}

uint32_t number(std::string_view s, std::string_view whole, const char *what) {
    uint32_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
        throw ParseError("invalid dependency '" + std::string(whole) + "': bad " + what + " '" +
                         std::string(s) + "'");
    return v;
}

} // namespace

Dependency parse_dependency(std::string_view text) {
    Dependency dep;
    if (text.empty()) return dep;
    bool has_and = text.find(',') != std::string_view::npos;
    bool has_or = text.find('?') != std::string_view::npos;
    if (has_and && has_or)
        throw ParseError("invalid dependency '" + std::string(text) +
                         "': ',' and '?' cannot be mixed");
    dep.any = has_or;
    char sep = has_or ? '?' : ',';
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find(sep, at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view part = text.substr(at, end - at);
        at = end + 1;
        if (part.empty())
            throw ParseError("invalid dependency '" + std::string(text) + "': empty term");
        std::size_t colon = part.find(':');
        std::string_view tname = part.substr(0, colon);
        const TypeName *type = nullptr;
        for (const auto &k : kTypes)
            if (k.name == tname) type = &k;
        if (!type)
            throw ParseError("invalid dependency '" + std::string(text) + "': unknown type '" +
                             std::string(tname) + "'");
        if (type->type == DepType::Singleton) {
            if (colon != std::string_view::npos)
                throw ParseError("invalid dependency '" + std::string(text) +
                                 "': singleton takes no job ids");
            dep.terms.push_back({DepType::Singleton, 0, 0xfffffffeu, 0});
            continue;
        }
        if (colon == std::string_view::npos || colon + 1 >= part.size())
            throw ParseError("invalid dependency '" + std::string(text) +
                             "': " + std::string(tname) + " needs a job id");
        // "afterok:1:2+5" - the delay, if any, applies to every id of the term.
        std::string_view ids = part.substr(colon + 1);
        uint32_t delay = 0;
        if (auto plus = ids.find('+'); plus != std::string_view::npos) {
            delay = number(ids.substr(plus + 1), text, "delay");
            ids = ids.substr(0, plus);
        }
        std::size_t i = 0;
        while (i <= ids.size()) {
            std::size_t e = ids.find(':', i);
            if (e == std::string_view::npos) e = ids.size();
            std::string_view id = ids.substr(i, e - i);
            i = e + 1;
            DepTerm t;
            t.type = type->type;
            t.delay_min = delay;
            if (auto us = id.find('_'); us != std::string_view::npos) {
                t.job_id = number(id.substr(0, us), text, "job id");
                t.task_id = number(id.substr(us + 1), text, "array task id");
            } else {
                t.job_id = number(id, text, "job id");
            }
            if (t.job_id == 0)
                throw ParseError("invalid dependency '" + std::string(text) + "': job id 0");
            dep.terms.push_back(t);
        }
    }
    if (dep.terms.size() > 1000) throw ParseError("invalid dependency: more than 1000 terms");
    return dep;
}

Status read_dependency(const std::string &text, uint32_t self, std::string *written,
                       Dependency *parsed) {
    try {
        *parsed = parse_dependency(text);
    } catch (const std::exception &) {
        return invalid("Job dependency problem");
    }
    for (const DepTerm &t : parsed->terms)
        if (self && t.type != DepType::Singleton && t.job_id == self)
            return invalid("Job dependency problem");
    *written = text;
    return {};
}

std::string Dependency::to_string() const {
    std::string out;
    for (const auto &t : terms) {
        if (!out.empty()) out += any ? '?' : ',';
        out += type_name(t.type);
        if (t.type == DepType::Singleton) continue;
        out += ':' + std::to_string(t.job_id);
        if (t.task_id != 0xfffffffeu) out += '_' + std::to_string(t.task_id);
        if (t.delay_min) out += '+' + std::to_string(t.delay_min);
    }
    return out;
}

} // namespace drover::ctld
