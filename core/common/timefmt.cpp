// timefmt.cpp - Slurm's time limit, elapsed time, timestamp and memory size forms, both ways.
#include "common/timefmt.hpp"

#include <array>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

#include "common/error.hpp"

namespace drover {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

std::string shown(std::string_view s) {
    std::string out(s.substr(0, 64));
    if (s.size() > 64) out += "...";
    return out;
}

// All digits, 1 to max_digits of them.
bool parse_digits(std::string_view s, uint64_t &out, std::size_t max_digits = 10) {
    if (s.empty() || s.size() > max_digits) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (!is_digit(c)) return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    out = v;
    return true;
}

// Splits "a:b:c" into up to max parts of digits; false when malformed.
bool parse_colon_parts(std::string_view s, uint64_t *parts, std::size_t &n, std::size_t max) {
    n = 0;
    while (true) {
        std::size_t colon = s.find(':');
        if (n == max) return false;
        if (!parse_digits(s.substr(0, colon), parts[n++])) return false;
        if (colon == std::string_view::npos) return true;
        s.remove_prefix(colon + 1);
    }
}

std::string fmt(const char *f, long long a, long long b, long long c = 0, long long d = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, a, b, c, d);
    return buf;
}

// "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S" into seconds; nullopt for anything else.
std::optional<uint64_t> duration_secs(std::string_view s) {
    uint64_t days = 0, h = 0, m = 0, sec = 0;
    uint64_t parts[3];
    std::size_t n = 0;
    std::size_t dash = s.find('-');
    if (dash != std::string_view::npos) {
        if (!parse_digits(s.substr(0, dash), days)) return std::nullopt;
        if (!parse_colon_parts(s.substr(dash + 1), parts, n, 3)) return std::nullopt;
        h = parts[0];
        if (n > 1) m = parts[1];
        if (n > 2) sec = parts[2];
    } else {
        if (!parse_colon_parts(s, parts, n, 3)) return std::nullopt;
        if (n == 1) {
            m = parts[0];
        } else if (n == 2) {
            m = parts[0];
            sec = parts[1];
        } else {
            h = parts[0];
            m = parts[1];
            sec = parts[2];
        }
    }
    // Each part has at most 10 digits, so the sum cannot overflow 64 bits.
    return days * 86400 + h * 3600 + m * 60 + sec;
}

} // namespace

uint64_t parse_duration_secs(std::string_view text) {
    auto secs = duration_secs(trim(text));
    if (!secs)
        throw ParseError("bad time '" + shown(text) +
                         "': expected minutes, M:S, H:M:S, D-H, D-H:M or D-H:M:S");
    return *secs;
}

uint32_t parse_time_limit(std::string_view text) {
    std::string_view s = trim(text);
    if (iequals(s, "unlimited") || iequals(s, "infinite")) return kInfinite;
    auto total = duration_secs(s);
    if (!total)
        throw ParseError("bad time limit '" + shown(text) +
                         "': expected minutes, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED");
    uint64_t minutes = (*total + 59) / 60;
    if (minutes >= kNoVal) throw ParseError("time limit '" + shown(text) + "' is too large");
    return static_cast<uint32_t>(minutes);
}

std::string format_time_limit(uint32_t minutes) {
    if (minutes == kInfinite) return "UNLIMITED";
    if (minutes == kNoVal) return "NONE";
    return format_elapsed(static_cast<int64_t>(minutes) * 60);
}

std::string format_elapsed(int64_t seconds) {
    if (seconds < 0) seconds = 0;
    long long d = seconds / 86400, h = seconds / 3600 % 24, m = seconds / 60 % 60, s = seconds % 60;
    if (d > 0) return fmt("%lld-%02lld:%02lld:%02lld", d, h, m, s);
    if (h > 0) return fmt("%lld:%02lld:%02lld", h, m, s);
    return fmt("%lld:%02lld", m, s);
}

std::string format_elapsed_hms(int64_t seconds) {
    if (seconds < 0) seconds = 0;
    long long d = seconds / 86400, h = seconds / 3600 % 24, m = seconds / 60 % 60, s = seconds % 60;
    if (d > 0) return fmt("%lld-%02lld:%02lld:%02lld", d, h, m, s);
    return fmt("%02lld:%02lld:%02lld", h, m, s);
}

std::string format_timestamp(int64_t t, bool na_for_zero) {
    if (t == 0) return na_for_zero ? "N/A" : "Unknown";
    std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    if (localtime_r(&tt, &tm) == nullptr) return "Unknown";
    char buf[64];
    if (std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm) == 0) return "Unknown";
    return buf;
}

namespace {

bool leap(int y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}
int days_in_month(int y, int m) {
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : d[m - 1];
}

// "HH:MM[:SS][am|pm]" into h/m/s; false when malformed.
bool parse_clock(std::string_view s, int &h, int &m, int &sec) {
    int add = -1;
    if (s.size() > 2 && (s.ends_with("am") || s.ends_with("pm"))) {
        add = s.ends_with("pm") ? 12 : 0;
        s = trim(s.substr(0, s.size() - 2));
    }
    uint64_t parts[3];
    std::size_t n = 0;
    if (!parse_colon_parts(s, parts, n, 3) || n < 2) return false;
    if (parts[0] > 23 || parts[1] > 59 || (n == 3 && parts[2] > 59)) return false;
    h = static_cast<int>(parts[0]);
    m = static_cast<int>(parts[1]);
    sec = n == 3 ? static_cast<int>(parts[2]) : 0;
    if (add >= 0) {
        if (h < 1 || h > 12) return false;
        h = h % 12 + add;
    }
    return true;
}

// Today at h:m:s local time, or tomorrow when that has passed.
int64_t next_clock(int64_t now, int h, int m, int s) {
    std::tm tm = local_tm(now);
    tm.tm_hour = h;
    tm.tm_min = m;
    tm.tm_sec = s;
    int64_t t = make_local(tm);
    if (t < now) {
        tm.tm_mday += 1;
        t = make_local(tm);
    }
    return t;
}

// The seconds a unit of "now+N<unit>" stands for; 0 for none.
int64_t unit_seconds(std::string_view unit) {
    auto is = [&](std::initializer_list<std::string_view> names) {
        for (auto nm : names)
            if (unit == nm) return true;
        return false;
    };
    if (is({"", "s", "sec", "secs", "second", "seconds"})) return 1;
    if (is({"m", "min", "mins", "minute", "minutes"})) return 60;
    if (is({"h", "hr", "hrs", "hour", "hours"})) return 3600;
    if (is({"d", "day", "days"})) return 86400;
    if (is({"w", "week", "weeks"})) return 7 * 86400;
    return 0;
}

// What follows "now": nothing, or +N[unit] / -N[unit]; nullopt when malformed.
std::optional<int64_t> relative_time(std::string_view after_now, int64_t now) {
    std::string rest;
    for (char c : after_now)
        if (!is_space(c)) rest.push_back(c);
    if (rest.empty()) return now;
    if (rest[0] != '+' && rest[0] != '-') return std::nullopt;
    std::string_view r = std::string_view(rest).substr(1);
    std::size_t k = 0;
    while (k < r.size() && is_digit(r[k])) ++k;
    uint64_t n = 0;
    if (!parse_digits(r.substr(0, k), n, 12)) return std::nullopt;
    int64_t mult = unit_seconds(r.substr(k));
    if (mult == 0) return std::nullopt;
    int64_t delta = static_cast<int64_t>(n) * mult; // n < 10^12, mult < 10^6: no overflow
    return rest[0] == '+' ? now + delta : now - delta;
}

// The time of day a word names: midnight, noon, elevenses (11:00), fika (15:00), teatime (16:00).
bool named_clock(std::string_view v, int &h) {
    static const std::pair<std::string_view, int> kWords[] = {
        {"midnight", 0}, {"noon", 12}, {"elevenses", 11}, {"fika", 15}, {"teatime", 16}};
    for (const auto &[word, hour] : kWords)
        if (v == word) {
            h = hour;
            return true;
        }
    return false;
}

struct Date {
    int year = -1, month = 0, day = 0;
    bool year_given = true;
};

// YYYY-MM-DD at the start of v, which loses it; false when malformed.
bool iso_date(std::string_view &v, Date &d) {
    uint64_t y, mo, dd;
    if (v.size() < 10 || !parse_digits(v.substr(0, 4), y) || v[4] != '-' || v[7] != '-' ||
        !parse_digits(v.substr(5, 2), mo) || !parse_digits(v.substr(8, 2), dd))
        return false;
    d.year = static_cast<int>(y);
    d.month = static_cast<int>(mo);
    d.day = static_cast<int>(dd);
    v.remove_prefix(10);
    return true;
}

// MM/DD[/YY[YY]], MM.DD[.YY] or MMDD[YY] (this year when none is given); false when malformed.
bool month_day(std::string_view date, int64_t now, Date &d) {
    std::string tmp(date);
    bool all_digits = !tmp.empty() && tmp.find_first_not_of("0123456789") == std::string::npos;
    if (all_digits && (tmp.size() == 4 || tmp.size() == 6))
        tmp = tmp.substr(0, 2) + ":" + tmp.substr(2, 2) +
              (tmp.size() == 6 ? ":" + tmp.substr(4) : "");
    for (char &c : tmp)
        if (c == '/' || c == '.') c = ':';
    uint64_t parts[3];
    std::size_t n = 0;
    if (!parse_colon_parts(tmp, parts, n, 3) || n < 2) return false;
    d.month = static_cast<int>(parts[0]);
    d.day = static_cast<int>(parts[1]);
    if (n == 3) {
        std::size_t ylen = tmp.size() - tmp.rfind(':') - 1;
        if (ylen == 2)
            d.year = 2000 + static_cast<int>(parts[2]);
        else if (ylen == 4)
            d.year = static_cast<int>(parts[2]);
        else
            return false;
    } else {
        d.year_given = false;
        d.year = local_tm(now).tm_year + 1900;
    }
    return true;
}

// The date at h:m:sec local time; nullopt when it is no date.
std::optional<int64_t> date_time(const Date &d, int h, int m, int sec, int64_t now) {
    if (d.year < 1970 || d.year > 9999 || d.month < 1 || d.month > 12 || d.day < 1 ||
        d.day > days_in_month(d.year, d.month))
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = d.year - 1900;
    tm.tm_mon = d.month - 1;
    tm.tm_mday = d.day;
    tm.tm_hour = h;
    tm.tm_min = m;
    tm.tm_sec = sec;
    if (!d.year_given) {
        // A month and day without a year that has already gone by this year means next year.
        std::tm today = local_tm(now);
        if (d.month - 1 < today.tm_mon || (d.month - 1 == today.tm_mon && d.day < today.tm_mday)) {
            tm.tm_year += 1;
            if (d.day > days_in_month(d.year + 1, d.month)) return std::nullopt;
        }
    }
    return make_local(tm);
}

// What the words of a time name: a day and a time of day, each at most once.
struct TimeParts {
    std::optional<Date> day;
    std::optional<std::array<int, 3>> clock; // h, m, s
};

// One word: today, tomorrow, a date, a named time of day or HH:MM[:SS][am|pm]; a date may carry
// its clock after 't' (11/22t10:00). False when it is none, or names what another word named.
bool take_word(std::string_view w, int64_t now, TimeParts &p) {
    auto day = [&](const Date &d) {
        if (p.day) return false;
        p.day = d;
        return true;
    };
    auto clock = [&](int h, int m, int s) {
        if (p.clock) return false;
        p.clock = std::array<int, 3>{h, m, s};
        return true;
    };
    if (w == "today" || w == "tomorrow") {
        std::tm tm = local_tm(now + (w == "tomorrow" ? 86400 : 0));
        return day({tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, true});
    }
    int h = 0, m = 0, sec = 0;
    if (named_clock(w, h)) return clock(h, 0, 0);
    if (w.find(':') != std::string_view::npos && w.find('t') == std::string_view::npos)
        return parse_clock(w, h, m, sec) && clock(h, m, sec);
    std::size_t t = w.find('t');
    Date d;
    if (!month_day(w.substr(0, t), now, d) || !day(d)) return false;
    return t == std::string_view::npos || take_word(w.substr(t + 1), now, p);
}

// The words of v, split at blanks and '-'; a lone "am" or "pm" joins the clock before it.
std::vector<std::string> time_words(std::string_view v) {
    std::vector<std::string> words;
    std::string cur;
    for (std::size_t i = 0; i <= v.size(); ++i) {
        if (i < v.size() && v[i] != ' ' && v[i] != '\t' && v[i] != '-') {
            cur.push_back(v[i]);
            continue;
        }
        if (cur.empty()) continue;
        if ((cur == "am" || cur == "pm") && !words.empty())
            words.back() += cur;
        else
            words.push_back(cur);
        cur.clear();
    }
    return words;
}

// Words separated by blanks or '-' ("noon tomorrow", "tomorrow-16:00", "12/31 teatime"); a
// YYYY-MM-DD date is one word, its clock after 'T', ' ' or '-'.
std::optional<int64_t> day_and_clock(std::string_view v, int64_t now) {
    TimeParts p;
    Date iso;
    if (iso_date(v, iso)) {
        p.day = iso;
        if (!v.empty() && v[0] != 't' && v[0] != ' ' && v[0] != '-') return std::nullopt;
        if (!v.empty()) v.remove_prefix(1);
    }
    for (const auto &w : time_words(v))
        if (!take_word(w, now, p)) return std::nullopt;
    if (!p.day && !p.clock) return std::nullopt;
    auto [h, m, sec] = p.clock.value_or(std::array<int, 3>{0, 0, 0});
    if (!p.day) return next_clock(now, h, m, sec); // today, or tomorrow when already past
    return date_time(*p.day, h, m, sec, now);
}

} // namespace

int64_t parse_timestamp(std::string_view text, int64_t now) {
    std::string s;
    for (char c : trim(text)) s.push_back(lower(c));
    auto bad = [&]() -> ParseError {
        return ParseError("bad time '" + shown(text) +
                          "': expected now[+N[units]], YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], "
                          "HH:MM[:SS], today, tomorrow, midnight, noon or teatime");
    };
    std::string_view v = s;
    if (v.starts_with("now")) {
        if (auto t = relative_time(v.substr(3), now)) return *t;
        throw bad();
    }
    uint64_t epoch = 0; // uts<seconds since the epoch>, as Slurm takes it
    if (v.starts_with("uts") && parse_digits(v.substr(3), epoch, 12) && epoch >= 1000000)
        return static_cast<int64_t>(epoch);
    if (auto t = day_and_clock(v, now)) return *t;
    throw bad();
}

uint64_t parse_size_mb(std::string_view text) {
    std::string_view s = trim(text);
    auto bad = [&]() -> ParseError {
        return ParseError("bad size '" + shown(text) +
                          "': expected a number of megabytes, or a number with K, M, G or T");
    };
    std::size_t k = 0;
    while (k < s.size() && is_digit(s[k])) ++k;
    if (k == 0) throw bad();
    uint64_t v = 0;
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    for (std::size_t i = 0; i < k; ++i) {
        uint64_t d = static_cast<uint64_t>(s[i] - '0');
        if (v > (kMax - d) / 10) throw ParseError("size '" + shown(text) + "' is too large");
        v = v * 10 + d;
    }
    std::string_view unit = s.substr(k);
    uint64_t mult = 1;
    if (unit.empty() || iequals(unit, "m")) return v;
    if (iequals(unit, "k")) return v / 1024 + (v % 1024 != 0);
    if (iequals(unit, "g"))
        mult = 1024;
    else if (iequals(unit, "t"))
        mult = 1024 * 1024;
    else if (iequals(unit, "p"))
        mult = 1024ull * 1024 * 1024;
    else
        throw bad();
    if (v > kMax / mult) throw ParseError("size '" + shown(text) + "' is too large");
    return v * mult;
}

std::string format_size_mb(uint64_t mb) {
    if (mb == 0) return "0";
    constexpr uint64_t G = 1024, T = G * 1024, P = T * 1024;
    if (mb % P == 0) return std::to_string(mb / P) + "P";
    if (mb % T == 0) return std::to_string(mb / T) + "T";
    if (mb % G == 0) return std::to_string(mb / G) + "G";
    return std::to_string(mb) + "M";
}

std::tm local_tm(int64_t t) {
    std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    localtime_r(&tt, &tm);
    return tm;
}

int64_t make_local(std::tm tm) {
    tm.tm_isdst = -1;
    return static_cast<int64_t>(std::mktime(&tm));
}

} // namespace drover
