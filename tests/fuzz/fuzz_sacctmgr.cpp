// fuzz_sacctmgr.cpp - fuzz target: arbitrary text as sacctmgr's arguments (split on spaces), as
// show event's conditions, and as format= items. Only drover::ParseError and UsageError (a
// refused command line) are expected.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/sacctmgr_args.hpp"
#include "cli/sacctmgr_events.hpp"
#include "cli/sacctmgr_fields.hpp"
#include "common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4 * 1024) return 0;
    std::string text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> args;
    std::istringstream in(text);
    for (std::string w; in >> w;) args.push_back(w);
    const int64_t now = 1795245000;
    try {
        auto a = drover::cli::parse_sacctmgr_args(args);
        if (a.entity == "event" && a.verb != "show") std::abort();
        if (a.entity == "event") {
            auto c = drover::cli::parse_event_conditions(a.conditions, now);
            drover::cli::parse_sacctmgr_format(
                c.format.empty() ? drover::cli::event_default_format(c) : c.format);
        }
    } catch (const drover::ParseError &) {
    } catch (const drover::cli::UsageError &) {}
    try {
        auto c = drover::cli::parse_event_conditions(args, now);
        for (const auto &s : c.states)
            if (s.flag && s.never && s.value != 0) std::abort();
    } catch (const drover::ParseError &) {}
    return 0;
}
