// sacct_time.hpp - sacct -S/-E times: Slurm's forms, read as times already past.
#pragma once

#include <cstdint>
#include <string_view>

namespace drover::cli {

// Parses what parse_timestamp reads ("now-2hours", "YYYY-MM-DD[THH:MM[:SS]]", "MM/DD[/YY]
// [-HH:MM[:SS]]", "HH:MM[:SS][AM|PM]", "today", "midnight", "noon", ...) and also "MMDD[YY]" and
// "MM.DD[.YY]". As sacct reads them, a time without a date that is still ahead today means
// yesterday's, and a date without a year still ahead this year means last year's. Throws
// drover::ParseError("Invalid time specification: X").
int64_t parse_sacct_time(std::string_view text, int64_t now);

} // namespace drover::cli
