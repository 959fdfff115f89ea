// job_signal_spec.cpp - --signal parsing.
#include "ctld/jobs/job_signal_spec.hpp"

#include <cctype>
#include <charconv>
#include <csignal>

namespace drover::ctld {

int signal_number(std::string_view name) {
    struct Named {
        std::string_view name;
        int sig;
    };
    static constexpr Named kSignals[] = {
        {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ABRT", SIGABRT},
        {"KILL", SIGKILL}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE},
        {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"CONT", SIGCONT}, {"STOP", SIGSTOP},
        {"TSTP", SIGTSTP}, {"URG", SIGURG},   {"XCPU", SIGXCPU}, {"WINCH", SIGWINCH},
    };
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
        int v = 0;
        auto [p, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
        return ec == std::errc() && p == name.data() + name.size() && v > 0 && v < 65 ? v : 0;
    }
    if (name.substr(0, 3) == "SIG") name.remove_prefix(3);
    for (const auto &s : kSignals)
        if (s.name == name) return s.sig;
    return 0;
}

bool parse_signal_spec(std::string_view spec, int *sig, uint32_t *secs, bool *batch_only) {
    *batch_only = false;
    *secs = 60;
    if (spec.size() > 2 && spec[1] == ':' && (spec[0] == 'B' || spec[0] == 'R')) {
        *batch_only = spec[0] == 'B';
        spec.remove_prefix(2);
    }
    std::string_view name = spec.substr(0, spec.find('@'));
    if (auto at = spec.find('@'); at != std::string_view::npos) {
        std::string_view t = spec.substr(at + 1);
        uint32_t v = 0;
        auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || ec != std::errc() || p != t.data() + t.size() || v > 65535) return false;
        *secs = v;
    }
    *sig = signal_number(name);
    return *sig != 0;
}

} // namespace drover::ctld
