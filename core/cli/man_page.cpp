// man_page.cpp - man pages from the option tables and help texts of command_docs.
#include "cli/man_page.hpp"

#include <algorithm>
#include <cctype>

#include "cli/help_text.hpp"
#include "common/ascii.hpp"
#include "common/version.hpp"

namespace drover::cli {

std::string roff_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
    return out;
}

namespace {

// "-t, --states=states" -> bold names, italic argument: "\fB\-t\fR, \fB\-\-states\fR=\fIstates\fR".
std::string spelled_roff(std::string_view spelled) {
    std::string out;
    while (!spelled.empty()) {
        std::size_t end = spelled.find_first_of(" ,=[");
        std::string_view word = spelled.substr(0, end);
        if (word.starts_with("-"))
            out += "\\fB" + roff_escape(word) + "\\fR";
        else if (!word.empty())
            out += "\\fI" + roff_escape(word) + "\\fR";
        if (end == std::string_view::npos) break;
        out += spelled[end];
        spelled.remove_prefix(end + 1);
    }
    return out;
}

std::string spec_spelled(const OptSpec &s) {
    std::string out;
    if (s.short_name) out += std::string("-") + s.short_name;
    if (s.long_name) out += (out.empty() ? "--" : ", --") + std::string(s.long_name);
    if (s.arg == Arg::required) out += s.long_name ? "=value" : " value";
    if (s.arg == Arg::optional) out += s.long_name ? "[=value]" : "";
    return out;
}

void add_header(std::string &out, const CommandDoc &doc) {
    const char *manual = doc.section == 8 ? "Drover daemons" : "Drover commands";
    out += ".TH " + ascii_upper(doc.name) + " " + std::to_string(doc.section) + " \"\" \"Drover " +
           kDroverVersion + "\" \"" + manual + "\"\n";
    out += ".SH NAME\n" + std::string(doc.name) + " \\- " + roff_escape(doc.summary) + "\n";
}

void add_synopsis(std::string &out, const HelpText &help, const CommandDoc &doc) {
    out += ".SH SYNOPSIS\n.nf\n";
    if (help.usage.empty()) out += "\\fB" + std::string(doc.name) + "\\fR [\\fIOPTIONS\\fR]\n";
    // "Usage: " goes, and as much of the indent of the lines that continue it.
    for (const auto &line : help.usage) {
        std::string_view l = line;
        if (l.starts_with("Usage: "))
            l.remove_prefix(7);
        else
            l.remove_prefix(std::min({l.find_first_not_of(' '), l.size(), std::size_t(7)}));
        out += roff_escape(l) + "\n";
    }
    out += ".fi\n";
}

// Every option the command parses: first as its help describes them, then those of the table
// its help does not name.
void add_options(std::string &out, const HelpText &help, const CommandDoc &doc) {
    out += ".SH OPTIONS\n";
    for (const auto &e : help.entries) {
        out += ".TP\n" + spelled_roff(e.spelled) + "\n";
        out += (e.description.empty() ? std::string("(see the SYNOPSIS)")
                                      : roff_escape(e.description)) +
               "\n";
    }
    std::vector<const OptSpec *> rest;
    for (const auto &s : doc.options)
        if (std::none_of(help.entries.begin(), help.entries.end(),
                         [&](const HelpEntry &e) { return entry_names(e, s); }))
            rest.push_back(&s);
    if (rest.empty()) return;
    out += ".PP\nAlso accepted, with the meaning Slurm gives the option of the same name "
           "(the compatibility notes say where Drover differs):\n";
    for (const auto *s : rest) out += ".TP\n" + spelled_roff(spec_spelled(*s)) + "\n.PP\n";
}

void add_see_also(std::string &out, const CommandDoc &doc, std::span<const CommandDoc> all) {
    out += ".SH SEE ALSO\n";
    std::string refs;
    for (const auto &d : all) {
        if (d.name == doc.name) continue;
        refs += (refs.empty() ? "" : ",\n") + std::string("\\fB") + std::string(d.name) + "\\fR(" +
                std::to_string(d.section) + ")";
    }
    out += refs + "\n.PP\nThe administrator's guide (admin\\-guide.md) and the Slurm compatibility "
                  "notes (compatibility.md), in Drover's share/doc/drover\\-common.\n";
}

} // namespace

std::string man_page(const CommandDoc &doc, std::span<const CommandDoc> all) {
    const HelpText help = parse_help(doc.help);
    std::string out;
    add_header(out, doc);
    add_synopsis(out, help, doc);
    std::string summary(doc.summary);
    if (!summary.empty()) summary[0] = char(std::toupper(static_cast<unsigned char>(summary[0])));
    out += ".SH DESCRIPTION\n" + roff_escape(summary) + ".\n";
    // What the help says beside its options (scontrol's commands), unless only section titles.
    if (std::any_of(help.other.begin(), help.other.end(),
                    [](const std::string &l) { return !l.ends_with(':'); })) {
        out += ".PP\n.nf\n";
        for (const auto &line : help.other) out += roff_escape(line) + "\n";
        out += ".fi\n";
    }
    add_options(out, help, doc);
    add_see_also(out, doc, all);
    return out;
}

} // namespace drover::cli
