// sacct_rows.hpp - sacct's fields, its job and step lines, and its three output layouts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proto/message_generated.h"

namespace drover::cli {

inline constexpr const char *kSacctDefaultFields =
    "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";
inline constexpr const char *kSacctBriefFields = "JobID,State,ExitCode";
extern const char *const kSacctLongFields;

struct SacctField {
    int kind = 0;
    int width = 0;      // negative: left-justified
    std::string name;   // the header, as Slurm spells it
};

// Parses "JobID,JobName%30,state" (names case-insensitive, unique prefixes allowed).
// Throws drover::ParseError("Invalid field requested: \"x\"").
std::vector<SacctField> parse_sacct_fields(std::string_view list);

// Every field name, for -e/--helpformat.
std::string sacct_field_names();

// One line: the job itself, or its batch step ("N.batch").
struct SacctRow {
    const proto::AcctJob *job = nullptr;
    bool batch_step = false;
};

// The lines for jobs, in job id order; a batch step follows each job that started, unless
// allocations_only (-X).
std::vector<SacctRow> sacct_rows(std::vector<const proto::AcctJob *> jobs, bool allocations_only);

// The text of one field of one line.
std::string sacct_value(const SacctField &f, const SacctRow &row, int64_t now);

enum class SacctLayout { fixed, parsable, parsable2 };

// Header (unless noheader), dashes (fixed layout only) and lines, each ending in '\n'.
std::string sacct_render(const std::vector<SacctField> &fields, const std::vector<SacctRow> &rows,
                         SacctLayout layout, std::string_view delimiter, bool header, int64_t now);

// The state a job line shows: "CANCELLED by 1000" names who cancelled.
std::string sacct_state(const proto::AcctJob &job, bool batch_step);

}  // namespace drover::cli
