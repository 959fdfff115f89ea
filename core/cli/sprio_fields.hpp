// sprio_fields.hpp - sprio's report as Slurm 23.11 prints it: the default formats (a column for
// each factor whose weight is not zero), the -o letters with their headers, widths and values
// (weighted as whole numbers, normalised with seven decimals), the -w line of weights, the -S
// order, and the messages for an unsupported priority plugin and jobs not found. Works on a plain
// model of the controller's PriorityFactorsResponse, so it needs no FlatBuffers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/format_spec.hpp"

namespace drover::cli {

// One TRES factor ("cpu", "mem", "node", "gres/gpu") and its value.
struct SprioTres {
    std::string name;
    double value = 0;
};

// A job's factors, each normalised to 0..1; or, as the response's weights, each factor's weight
// in its place. site and nice are plain integers (the priority adds site and subtracts nice).
struct SprioFactors {
    double age = 0, assoc = 0, fairshare = 0, job_size = 0, partition = 0, qos = 0;
    int64_t site = 0, nice = 0;
    std::vector<SprioTres> tres;
};

struct SprioJob {
    uint32_t job_id = 0;
    std::string user, account, partition, qos;
    // nullopt: a priority set by hand (Slurm's direct priority): its factors show as 0 and its
    // priority is this one.
    std::optional<SprioFactors> factors;
    uint32_t priority = 0;
    std::string cluster; // the member that reported it, in a federated view
};

struct SprioReport {
    SprioFactors weights;
    std::vector<SprioJob> jobs;
};

// Which default format: -n, -l, and whether -u was given (a USER column).
struct SprioLayout {
    bool normalized = false, long_list = false, users = false;
    bool clusters = false; // --sibling: a CLUSTER column after the job id
};

// Slurm's default format for the layout; the short ones have a column for each factor whose
// weight is not zero (TRES: when any TRES has a weight).
std::string sprio_default_format(const SprioFactors &weights, const SprioLayout &layout);

// A parsed -o format, without the fields whose letters sprio does not know (Slurm drops them,
// with their suffixes, and goes on): errors holds "Invalid job format specification: x" for each.
// Throws drover::ParseError for a '%' with no letter after it.
struct SprioFormat {
    FormatSpec spec;
    std::vector<std::string> errors;
};
SprioFormat sprio_format(std::string_view fmt);

// One -S key: a format letter, and whether it was preceded by '-'.
struct SprioSortKey {
    char letter = 'i';
    bool descending = false;
};

// Parses a -S list ("u,r,-y"; the commas are optional). Throws
// drover::ParseError("Invalid sort specification: x") for a letter sprio cannot sort by.
std::vector<SprioSortKey> parse_sprio_sort(std::string_view spec);

// Orders jobs by the keys, the first most significant; factors compare by weighted value.
void sprio_sort(std::vector<SprioJob> &jobs, const std::vector<SprioSortKey> &keys,
                const SprioFactors &weights);

// The priority sprio shows (%Y): the weighted factors and TRES, plus site, minus nice, at least 1;
// a priority set by hand as it is.
double sprio_priority(const SprioJob &job, const SprioFactors &weights);

// What to print: the header (not -h), only the weights (-w), whether -j named jobs (then none
// found prints Slurm's message instead of the report), and the order of the jobs.
struct SprioOutput {
    bool header = true, weights_only = false, jobs_named = false;
    std::vector<SprioSortKey> sort = {{'i', false}};
};

// The whole of sprio's standard output for a report.
std::string sprio_text(const SprioFormat &fmt, const SprioReport &report, const SprioOutput &out);

// --helpformat: the format letters, eight to a line.
std::string sprio_format_letters();

// Slurm's message (to stderr, exit status 1) when the controller runs no priority plugin sprio
// supports: priority_type "" (none) or "priority/basic"; nullopt otherwise.
std::optional<std::string> sprio_plugin_error(std::string_view priority_type);

} // namespace drover::cli
