// reservation.cpp - reservation name lists and recurrence.
#include "ctld/resv/reservation.hpp"

#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::ctld {

bool NameList::admits(std::string_view name) const {
    bool listed = false;
    for (const auto &n : names) listed = listed || n == name;
    return exclude ? !listed : listed;
}

std::string NameList::text() const {
    std::string out;
    for (const auto &n : names)
        out += (out.empty() ? "" : ",") + std::string(exclude ? "-" : "") + n;
    return out;
}

NameList NameList::parse(std::string_view text) {
    NameList l;
    for (const std::string &word : detail::split_list(text)) {
        std::string_view item = word;
        const bool minus = item.front() == '-';
        if (minus) item.remove_prefix(1);
        if (item.empty()) continue;
        if (!l.names.empty() && minus != l.exclude)
            throw ParseError("a list may not both name and exclude (-name) entries");
        l.exclude = minus;
        l.names.emplace_back(item);
    }
    return l;
}

bool Reservation::advance() {
    if (!(flags & kResvRecurring) || end == 0) return false;
    const int64_t length = end - start;
    auto step = [this](int days) {
        std::tm tm = local_tm(start);
        tm.tm_mday += days;
        tm.tm_isdst = -1; // the same time of day across a daylight saving change
        start = make_local(tm);
    };
    if (flags & kResvHourly) {
        start += 3600;
    } else if (flags & kResvWeekly) {
        step(7);
    } else {
        do {
            step(1);
        } while (((flags & kResvWeekday) && (local_tm(start).tm_wday % 6 == 0)) ||
                 ((flags & kResvWeekend) && (local_tm(start).tm_wday % 6 != 0)));
    }
    end = start + length;
    return true;
}

} // namespace drover::ctld
