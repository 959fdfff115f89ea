// scancel_select.hpp - the jobs scancel chooses itself, as Slurm's scancel does when given a
// filter the controller's signal request does not carry (-A, -q, -R, -w) or -i: which active
// jobs pass every filter, the spec that names each, the -i question and the -v line for none.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/scancel_args.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// The jobs scancel acts on: pending, running or suspended, passing every filter of a (uid: the
// -u/--me user, resolved), and named by one of a's ids when it has any. Throws
// drover::ParseError for a malformed -w hostlist.
std::vector<const proto::JobInfo *> scancel_select(const ScancelArgs &a,
                                                   std::optional<uint32_t> uid,
                                                   std::span<const proto::JobInfo *const> jobs);

// The ids of a that name none of jobs's pending, running or suspended jobs.
std::vector<std::string> scancel_unknown_ids(const ScancelArgs &a,
                                             std::span<const proto::JobInfo *const> jobs);

// What scancel sends to cancel one chosen job: "12", "12_3", or for a pending array record the
// ids of a that name it ("12_[4-6]") or else its waiting tasks ("12_[4-15]").
std::vector<std::string> scancel_specs_for(const ScancelArgs &a, const proto::JobInfo &job);

// Slurm's -v line when no job passes the filters: "No active jobs match ALL job filters,
// including: account=x job_name=y ..." (each filter given, in Slurm's order, each followed by a
// space).
std::string scancel_no_match_message(const ScancelArgs &a);

// Asks on out "Cancel job_id=N name=X partition=P [y/n]? " until a line read from in starts
// with y or n (either case); true for y. The end of input answers n.
bool scancel_confirm(const proto::JobInfo &job, std::FILE *in, std::FILE *out);

} // namespace drover::cli
