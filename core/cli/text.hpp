// text.hpp - small string helpers the commands share: splitting, case, strict numbers, padding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drover::cli {

// Splits on sep; empty pieces are dropped unless keep_empty.
std::vector<std::string> split(std::string_view s, char sep, bool keep_empty = false);
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view s, std::string_view prefix);
// Whether word abbreviates name as Slurm's command words are abbreviated: a case-insensitive
// prefix of name, at least min characters long.
bool abbreviates(std::string_view word, std::string_view name, std::size_t min);
std::string_view trim(std::string_view s);

// Strict decimal parsers: digits only (no sign, no spaces), no overflow.
std::optional<uint32_t> parse_u32(std::string_view s);
std::optional<uint64_t> parse_u64(std::string_view s);

std::string str_u(uint64_t v);
std::string str_i(int64_t v);

// Fits a value into a column the way squeue and sinfo do: width 0 prints it whole; otherwise
// it is cut to width (when cut) and padded with spaces on the left (right) or the right.
std::string fit(std::string_view s, int width, bool right, bool cut = true);

// Fits a value the way sacct does: cut values end in '+'; negative width is left-justified.
// Always followed by one space.
std::string fit_sacct(std::string_view s, int width);

// "(null)" for an empty string, as Slurm prints unset strings.
inline std::string or_null(std::string_view s) {
    return s.empty() ? "(null)" : std::string(s);
}

// dflt for an empty string: what Slurm prints for a setting the job left at its default.
inline std::string or_default(std::string_view s, std::string_view dflt) {
    return std::string(s.empty() ? dflt : s);
}

// Writes all of s to stdout / stderr (no buffering surprises, no iostreams).
void write_out(std::string_view s);
void write_err(std::string_view s);

// "<prog>: error: <line>" for each line of msg, to stderr.
void print_error(std::string_view prog, std::string_view msg);
// "<prog>: <line>" for each line of msg, to stderr (Slurm's info level: what JobSubmitPlugins
// leave for the submitter); nothing for an empty msg.
void print_info(std::string_view prog, std::string_view msg);
// "<prog>: warning: <msg>" to stderr.
void print_warning(std::string_view prog, std::string_view msg);

// Slurm's refusal of -M/--clusters naming a cluster this controller is not (Drover reaches no
// other yet).
std::string unreachable_clusters(std::string_view clusters);

} // namespace drover::cli
