// timefmt.hpp - time limits, durations and timestamps as Slurm writes and reads them.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

namespace drover {

inline constexpr uint32_t kInfinite = 0xffffffffu; // UNLIMITED / INFINITE
inline constexpr uint32_t kNoVal = 0xfffffffeu;    // not set

// Parses a time limit into minutes (seconds round up): "M", "M:S", "H:M:S", "D-H", "D-H:M",
// "D-H:M:S", "UNLIMITED", "INFINITE" (-> kInfinite). "0" is 0. Throws ParseError otherwise.
uint32_t parse_time_limit(std::string_view text);
// The same forms (not UNLIMITED) into seconds, kept exact: PriorityDecayHalfLife, where Drover
// also takes "M:S" to the second (Slurm rounds it up to a minute).
uint64_t parse_duration_secs(std::string_view text);

// Formats minutes as Slurm prints a limit: kInfinite -> "UNLIMITED", kNoVal -> "NONE",
// 30 -> "30:00", 90 -> "1:30:00", 1440 -> "1-00:00:00".
std::string format_time_limit(uint32_t minutes);

// Formats elapsed seconds as squeue's TIME column: "0:00", "5:03", "1:02:03", "2-01:02:03".
// Negative values (clock skew) print as "0:00"; the same holds for format_elapsed_hms.
std::string format_elapsed(int64_t seconds);

// Formats elapsed seconds as sacct's Elapsed: "00:00:05", "1-02:03:04".
std::string format_elapsed_hms(int64_t seconds);

// Formats a timestamp as Slurm does in local time: "2026-11-21T04:01:02"; 0 -> "Unknown"
// (or "N/A" when na_for_zero).
std::string format_timestamp(int64_t t, bool na_for_zero = false);

// Parses Slurm's absolute and relative time forms used by --begin, -S/-E, in local time:
// "now", "now+N" / "now-N" with an optional unit (s|sec|seconds, m|min|minutes, h|hours,
// d|days, w|weeks; none = seconds), "uts<epoch seconds>", or a day and a time of day, either
// alone, in either order, separated by blanks or '-' ("noon tomorrow", "12/31-teatime"). Days:
// "today", "tomorrow", "YYYY-MM-DD", "MM/DD[/YY|/YYYY]", "MM.DD[.YY]", "MMDD[YY]" (without a
// year, a date already gone this year means next year); a date may take its time after 'T'.
// Times: "HH:MM[:SS][ am|pm]", "midnight", "noon", "elevenses" (11:00), "fika" (15:00),
// "teatime" (16:00); a time alone is today's, or tomorrow's when already past, and a day alone
// starts at 00:00. Case-insensitive. Throws ParseError.
int64_t parse_timestamp(std::string_view text, int64_t now);

// A timestamp's local calendar time, and a local calendar time's timestamp (daylight saving time
// as the date has it).
std::tm local_tm(int64_t t);
int64_t make_local(std::tm tm);

// Parses a memory size in megabytes: "100" (MB), "100K" (rounds up to whole MB), "100M", "4G",
// "1T", "1P" (case-insensitive). Throws ParseError for empty, negative, garbage or overflow.
uint64_t parse_size_mb(std::string_view text);

// Formats megabytes as Slurm prints memory in sacct/scontrol: 1024 -> "1G", 1536 -> "1536M",
// 1048576 -> "1T", 0 -> "0". parse_size_mb reads every result back.
std::string format_size_mb(uint64_t mb);

} // namespace drover
