// sdiag.cpp - the controller's counters (StatsRequest) in Slurm's layout; -r starts them again.
#include <map>

#include "cli/command_docs.hpp"
#include "cli/command_main.hpp"
#include "cli/sdiag_text.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sdiag";

constexpr const char *kHelp = "Usage: sdiag [OPTIONS]\n"
                              "  -a, --all             all statistics\n"
                              "  -r, --reset           reset statistics\n"
                              "\n"
                              "Help options:\n"
                              "  --help                show this help message\n"
                              "  --usage               display brief usage message\n"
                              "  -V, --version         display current version number\n";

constexpr const char *kUsage = "Usage: sdiag [-aritT] [--help] [--usage] [-V]\n";

constexpr CommandText kText{kProg, kHelp, kUsage};

struct SdiagArgs : CommonFlags {
    bool reset = false;
};

enum Id : int { kAll, kReset, kSortId, kSortName, kSortTime, kSortTime2 };

constexpr OptSpec kSpecs[] = {
    {kAll, 'a', "all", Arg::none},
    {kReset, 'r', "reset", Arg::none},
    {kSortId, 'i', "sort-by-id", Arg::none},
    {kSortName, 'n', "sort-by-name", Arg::none},
    {kSortTime, 't', "sort-by-time", Arg::none},
    {kSortTime2, 'T', "sort-by-time2", Arg::none},
    {kOptHelp, 'h', "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
};

SdiagArgs parse(std::span<const std::string> args) {
    ParsedArgs pa = parse_options(args, kSpecs, false);
    if (!pa.positionals.empty()) throw UsageError("invalid argument '" + pa.positionals[0] + "'");
    SdiagArgs a;
    for (const auto &o : pa.opts)
        if (!take_common(a, o) && o.id == kReset) a.reset = true;
    return a;
}

int run(const SdiagArgs &a) {
    flatbuffers::FlatBufferBuilder fbb;
    auto req = proto::CreateStatsRequest(fbb, a.reset);
    net::Reply reply;
    const auto *r =
        ask_ctld<proto::StatsResponse>(reply, fbb, proto::Body::StatsRequest, req.Union(),
                                       a.reset ? error_line("slurm_reset_statistics: ")
                                               : error_line(std::string(kProg) + ": error: "));
    if (!r) return 1;
    if (a.reset) {
        write_out("Reset scheduling statistics\n");
        return 0;
    }
    std::map<std::string, std::string> fields;
    if (r->fields())
        for (const auto *kv : *r->fields())
            fields[kv->key() ? kv->key()->str() : ""] = kv->value() ? kv->value()->str() : "";
    write_out(sdiag_report(fields));
    return 0;
}

} // namespace

int sdiag_main(std::span<const std::string> args) {
    return command_main(kText, args, parse, run);
}

std::span<const OptSpec> sdiag_options() {
    return kSpecs;
}

std::string_view sdiag_help() {
    return kHelp;
}

} // namespace drover::cli
