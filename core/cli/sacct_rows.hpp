// sacct_rows.hpp - sacct's fields, its job and step lines, and its three output layouts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/field_layout.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

inline constexpr const char *kSacctDefaultFields =
    "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";
inline constexpr const char *kSacctBriefFields = "JobID,State,ExitCode";
extern const char *const kSacctLongFields;

struct SacctField {
    int kind = 0;
    int width = 0;    // negative: left-justified
    std::string name; // the header, as Slurm spells it
};

// Parses "JobID,JobName%30,state" (names case-insensitive, unique prefixes allowed).
// Throws drover::ParseError("Invalid field requested: \"x\"").
std::vector<SacctField> parse_sacct_fields(std::string_view list);

// Every field name, for -e/--helpformat.
std::string sacct_field_names();

// One line: the job itself, one of its recorded steps, or a batch step ("N.batch") made from the
// job's own record when the store holds no step of it (records from before step accounting).
struct SacctRow {
    const proto::AcctJob *job = nullptr;
    bool batch_step = false;
    const proto::AcctStep *step = nullptr;
};

// The lines for jobs, in job id order, each followed by its steps (batch, extern, then numbered)
// unless allocations_only (-X).
std::vector<SacctRow> sacct_rows(std::vector<const proto::AcctJob *> jobs, bool allocations_only);

// The text of one field of one line; units is --units (0: sacct's own choice per figure).
std::string sacct_value(const SacctField &f, const SacctRow &row, int64_t now, char units = 0);

using SacctLayout = FieldLayout;

// Header (unless noheader), dashes (fixed layout only) and lines, each ending in '\n'.
std::string sacct_render(const std::vector<SacctField> &fields, const std::vector<SacctRow> &rows,
                         SacctLayout layout, std::string_view delimiter, bool header, int64_t now,
                         char units = 0);

// The state a job line shows: "CANCELLED by 1000" names who cancelled.
std::string sacct_state(const proto::AcctJob &job, bool batch_step);

} // namespace drover::cli
