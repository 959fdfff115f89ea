// sacct_time.cpp - sacct's -S/-E times.
#include "cli/sacct_time.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <string>

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

bool digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// The same moment a year earlier, in local time.
int64_t year_before(int64_t t) {
    std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    localtime_r(&tt, &tm);
    tm.tm_year -= 1;
    tm.tm_isdst = -1;
    return static_cast<int64_t>(std::mktime(&tm));
}

} // namespace

int64_t parse_sacct_time(std::string_view text, int64_t now) {
    std::string s(trim(text));
    for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool iso =
        s.size() >= 10 && std::isdigit(static_cast<unsigned char>(s[0])) && s[4] == '-';
    const bool word = !s.empty() && std::isalpha(static_cast<unsigned char>(s[0])); // now, noon
    std::string normal = s;
    bool has_date = iso, has_year = iso;
    if (!iso && !word) {
        // The date part runs to 't', '-' or ' ' (a clock time may follow).
        std::size_t end = s.find_first_of("t -");
        std::string date = s.substr(0, end), rest = end == std::string::npos ? "" : s.substr(end);
        // MMDD[YY] and MM.DD[.YY] are MM/DD[/YY].
        if (digits(date) && (date.size() == 4 || date.size() == 6))
            date = date.substr(0, 2) + "/" + date.substr(2, 2) +
                   (date.size() == 6 ? "/" + date.substr(4) : "");
        else if (date.find('.') != std::string::npos &&
                 date.find_first_not_of("0123456789.") == std::string::npos)
            for (char &c : date)
                if (c == '.') c = '/';
        normal = date + rest;
        has_date = date.find('/') != std::string::npos;
        has_year = std::count(date.begin(), date.end(), '/') == 2;
    }
    const bool clock_only = !has_date && !s.starts_with("now") && s != "today" && s != "tomorrow";
    int64_t t;
    try {
        t = parse_timestamp(normal, now);
    } catch (const ParseError &) {
        throw ParseError("Invalid time specification: " + std::string(trim(text)));
    }
    if (t > now && clock_only) t -= 86400;                    // still ahead today: yesterday's
    if (t > now && has_date && !has_year) t = year_before(t); // ahead this year: last year's
    return t;
}

} // namespace drover::cli
