// sattach_args.cpp - sattach's command line.
#include "cli/command_docs.hpp"
#include "cli/sattach_args.hpp"

#include "cli/job_ids.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id { kInput = 1, kOutput, kError, kLabel, kLayout, kPty, kQuiet };

constexpr OptSpec kSpecs[] = {
    {kInput, 0, "input-filter", Arg::required}, {kOutput, 0, "output-filter", Arg::required},
    {kError, 0, "error-filter", Arg::required}, {kLabel, 'l', "label", Arg::none},
    {kLayout, 0, "layout", Arg::none},          {kPty, 0, "pty", Arg::none},
    {kQuiet, 'Q', "quiet", Arg::none},          {kOptUsage, 'u', "usage", Arg::none},
    {kOptHelp, 'h', "help", Arg::none},         {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
};

// A filter's task: a number, or "-" for every task.
std::optional<uint32_t> filter(const std::string &v, const char *what) {
    if (v == "-") return std::nullopt;
    auto n = parse_u32(v);
    if (!n) throw ParseError("Invalid numeric value \"" + v + "\" for " + what + ".");
    return n;
}

bool filtered(const SattachArgs &a) {
    return a.input_filter || a.output_filter || a.error_filter;
}

} // namespace

SattachArgs parse_sattach_args(std::span<const std::string> args) {
    SattachArgs a;
    ParsedArgs p = parse_options(args, kSpecs, true);
    bool error_given = false;
    for (const auto &o : p.opts) {
        if (take_common(a, o)) continue;
        const std::string v = o.value.value_or("");
        switch (o.id) {
        case kInput:
            a.input_filter = filter(v, "input-filter");
            break;
        case kOutput:
            a.output_filter = filter(v, "output-filter");
            break;
        case kError:
            a.error_filter = filter(v, "error-filter"), error_given = true;
            break;
        case kLabel:
            a.label = true;
            break;
        case kLayout:
            a.layout = true;
            break;
        case kPty:
            a.pty = true;
            break;
        case kQuiet:
            a.quiet = true;
            break;
        }
    }
    if (a.help || a.usage || a.version) return a;
    if (!error_given) a.error_filter = a.output_filter;
    if (a.verbose && a.quiet)
        throw ParseError("don't specify both --verbose (-v) and --quiet (-Q)");
    if (a.pty && filtered(a)) throw ParseError("don't specify both --pty and I/O filtering");
    if (p.positionals.size() != 1) throw ParseError("too many parameters");
    auto spec = parse_job_spec(p.positionals[0]);
    if (!spec || spec->has_tasks || spec->step_id == 0xfffffffeu)
        throw ParseError("Failed to parse stepid from command line options");
    if (spec->step_id >= 0xfffffff0u)
        throw ParseError("Bad step specified: " + std::to_string(spec->job_id));
    a.job_id = spec->job_id;
    a.step_id = spec->step_id;
    return a;
}

std::span<const OptSpec> sattach_options() {
    return kSpecs;
}

} // namespace drover::cli
