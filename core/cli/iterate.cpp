// iterate.cpp - the date line and the --iterate loop of squeue and sinfo.
#include "cli/iterate.hpp"

#include <time.h>
#include <unistd.h>

#include "cli/text.hpp"

namespace drover::cli {

std::string date_line(int64_t now) {
    time_t t = static_cast<time_t>(now);
    char buf[64];
    struct tm tm {};
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Y\n", &tm);
    return buf;
}

int show_every(int seconds, const std::function<int()> &show) {
    if (!seconds) return show();
    while (true) {
        int rc = show();
        if (rc != 0) return rc;
        write_out("\n");
        ::sleep(static_cast<unsigned>(seconds));
    }
}

} // namespace drover::cli
