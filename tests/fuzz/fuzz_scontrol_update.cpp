// fuzz_scontrol_update.cpp - fuzz target: scontrol update's and reboot's words (the input split
// at spaces) as the command reads them: a line whose first word is "reboot" goes to reboot's
// parser; any other, which entity it names, then that entity's parser (job, step or node).
// Nothing crashes, every refusal is a ParseError, a step's relative change is never UNLIMITED,
// and a reboot names its nodes and a known next state.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/reboot_args.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/step_update_args.hpp"
#include "common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> words;
    for (std::size_t at = 0; at <= text.size() && words.size() < 32;) {
        std::size_t end = text.find(' ', at);
        if (end == std::string_view::npos) end = text.size();
        if (end > at) words.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    using drover::cli::UpdateWhat;
    try {
        if (!words.empty() && words.front() == "reboot") {
            auto a = drover::cli::parse_reboot(std::span(words).subspan(1));
            if (a.nodes.empty()) std::abort(); // words are never empty
            if (!a.next_state.empty() && a.next_state != "DOWN" && a.next_state != "RESUME")
                std::abort();
            return 0;
        }
        switch (drover::cli::update_target(words)) {
        case UpdateWhat::step: {
            drover::cli::StepUpdate u = drover::cli::parse_step_update(words);
            if (u.sign != 0 && u.time_limit == 0xffffffffu) std::abort();
            break;
        }
        case UpdateWhat::job:
            (void)drover::cli::parse_job_update(words, 1700000000);
            break;
        case UpdateWhat::node:
            (void)drover::cli::parse_node_update(words);
            break;
        case UpdateWhat::power:
            for (const auto &c : drover::cli::parse_power_update(words))
                if (c.key.empty() || (c.op != "=" && c.op != "+=" && c.op != "-=")) std::abort();
            break;
        default:
            break;
        }
    } catch (const drover::ParseError &) {}
    return 0;
}
