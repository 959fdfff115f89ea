// pmi_wire.cpp - the PMI-1 and PMI-2 wire formats.
#include "common/pmi_wire.hpp"

#include <cstdio>

namespace drover::pmi {

std::optional<std::string> Command::get(std::string_view key) const {
    for (const auto &[k, v] : attrs)
        if (k == key) return v;
    return std::nullopt;
}

namespace {

Read malformed(std::size_t used, std::string why) {
    Read r;
    r.kind = Read::malformed;
    r.used = used;
    r.why = std::move(why);
    return r;
}

// Space-separated key=value tokens of one PMI-1 line into cmd. A token with no '=' continues
// the value before it (a message with spaces in it).
bool parse_tokens(std::string_view line, Command &cmd) {
    std::size_t at = 0;
    while (at < line.size()) {
        std::size_t end = line.find(' ', at);
        if (end == std::string_view::npos) end = line.size();
        std::string_view tok = line.substr(at, end - at);
        at = end + 1;
        if (tok.empty()) continue;
        std::size_t eq = tok.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            if (cmd.attrs.empty()) return false;
            cmd.attrs.back().second.append(" ").append(tok);
            continue;
        }
        cmd.attrs.emplace_back(std::string(tok.substr(0, eq)), std::string(tok.substr(eq + 1)));
    }
    return !cmd.attrs.empty();
}

// The cmd= (or mcmd=) attribute becomes the command's name.
bool take_name(Command &cmd) {
    if (cmd.attrs.empty() || (cmd.attrs[0].first != "cmd" && cmd.attrs[0].first != "mcmd"))
        return false;
    cmd.name = std::move(cmd.attrs[0].second);
    cmd.attrs.erase(cmd.attrs.begin());
    return !cmd.name.empty();
}

// mcmd=spawn ... endcmd: one attribute per line.
Read read_multiline(std::string_view in) {
    std::size_t end = in.find("\nendcmd\n");
    if (end == std::string_view::npos)
        return in.size() > kRequestMax ? malformed(in.size(), "spawn request too long") : Read{};
    Read r;
    r.used = end + 8;
    std::string_view body = in.substr(0, end);
    std::size_t at = 0;
    while (at <= body.size()) {
        std::size_t nl = body.find('\n', at);
        if (nl == std::string_view::npos) nl = body.size();
        if (!parse_tokens(body.substr(at, nl - at), r.cmd) && nl > at)
            return malformed(r.used, "malformed spawn line");
        at = nl + 1;
    }
    if (!take_name(r.cmd)) return malformed(r.used, "no command name");
    r.kind = Read::request;
    return r;
}

} // namespace

Read read_v1(std::string_view in) {
    if (in.rfind("mcmd=", 0) == 0) return read_multiline(in);
    std::size_t nl = in.find('\n');
    if (nl == std::string_view::npos)
        return in.size() > kRequestMax ? malformed(in.size(), "request line too long") : Read{};
    std::string_view line = in.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Read r;
    r.used = nl + 1;
    if (!parse_tokens(line, r.cmd) || !take_name(r.cmd))
        return malformed(r.used, "request does not start with cmd=");
    r.kind = Read::request;
    return r;
}

Read read_v2(std::string_view in) {
    if (in.size() < 6) return {};
    // Clients pad the length on either side ("%6d" or "%-6d").
    std::size_t len = 0;
    int digits = 0, runs = 0;
    char prev = ' ';
    for (char c : in.substr(0, 6)) {
        bool digit = c >= '0' && c <= '9';
        if (!digit && c != ' ') return malformed(in.size(), "bad length field");
        if (digit) len = len * 10 + std::size_t(c - '0'), ++digits;
        if (digit && prev == ' ') ++runs;
        prev = c;
    }
    if (runs > 1) return malformed(in.size(), "bad length field");
    if (!digits || len > kRequestMax) return malformed(in.size(), "bad length field");
    if (in.size() < 6 + len) return {};
    Read r;
    r.used = 6 + len;
    std::string_view body = in.substr(6, len);
    std::string key, value;
    bool in_value = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c == ';' && i + 1 < body.size() && body[i + 1] == ';') { // an escaped ';'
            (in_value ? value : key).push_back(';');
            ++i;
        } else if (c == ';') {
            if (!in_value || key.empty()) return malformed(r.used, "attribute without a value");
            r.cmd.attrs.emplace_back(std::move(key), std::move(value));
            key.clear();
            value.clear();
            in_value = false;
        } else if (c == '=' && !in_value) {
            in_value = true;
        } else {
            (in_value ? value : key).push_back(c);
        }
    }
    if (in_value && !key.empty()) r.cmd.attrs.emplace_back(std::move(key), std::move(value));
    if (!take_name(r.cmd)) return malformed(r.used, "request does not start with cmd=");
    r.kind = Read::request;
    return r;
}

std::string write_v1(std::string_view name,
                     const std::vector<std::pair<std::string, std::string>> &attrs) {
    std::string out = "cmd=";
    out.append(name);
    for (const auto &[k, v] : attrs) out.append(" ").append(k).append("=").append(v);
    out.push_back('\n');
    return out;
}

std::string write_v2(std::string_view name,
                     const std::vector<std::pair<std::string, std::string>> &attrs) {
    std::string body;
    auto escaped = [&body](std::string_view text) {
        for (char c : text) {
            body.push_back(c);
            if (c == ';') body.push_back(';');
        }
    };
    body = "cmd=";
    escaped(name);
    body.push_back(';');
    for (const auto &[k, v] : attrs) {
        escaped(k);
        body.push_back('=');
        escaped(v);
        body.push_back(';');
    }
    char len[8];
    std::snprintf(len, sizeof len, "%-6zu", body.size());
    return std::string(len, 6) + body;
}

} // namespace drover::pmi
