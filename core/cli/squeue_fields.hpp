// squeue_fields.hpp - squeue's columns: the -o letters and -O names, their headers and values,
// and its sort order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/format_spec.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

inline constexpr const char *kSqueueDefaultFormat = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
inline constexpr const char *kSqueueLongFormat = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";
inline constexpr const char *kSqueueStepsFormat = "%.15i %.8j %.9P %.8u %.9M %N";
inline constexpr const char *kSqueueStartFormat = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";
inline constexpr const char *kSqueueDefaultSort = "P,t,-p";

// A format with each field resolved to the job attribute it shows.
struct SqueueFormat {
    FormatSpec spec;
    std::vector<int> kinds;   // parallel to spec.fields
};

// Resolves a -o format. Throws drover::ParseError("Invalid job format specification: x").
SqueueFormat squeue_percent_format(std::string_view fmt);
// Resolves a -O format (default width 20). Same errors.
SqueueFormat squeue_long_format(std::string_view fmt);

std::string squeue_header(const SqueueFormat &f);
std::string squeue_line(const SqueueFormat &f, const proto::JobInfo &job, int64_t now);

// Seconds the job has run: 0 while pending; up to now while running; to its end after.
int64_t job_time_used(const proto::JobInfo &job, int64_t now);
// When the job ended, or is expected to end (start + limit while running); 0 if unknown.
int64_t job_end_time(const proto::JobInfo &job);
// Nodes the job holds (or asks for while pending).
uint32_t job_node_count(const proto::JobInfo &job);

// Sorts by a -S spec ("P,t,-p"); ties fall back to later start first, then job id.
// Throws drover::ParseError("Invalid sort specification: x").
void squeue_sort(std::vector<const proto::JobInfo *> &jobs, std::string_view spec, int64_t now);

}  // namespace drover::cli
