// job_desc.hpp - the job_desc table a script reads and changes (job_desc.partition,
// job_desc.time_limit = 60, ...), backed by the host's description for the call in progress.
#pragma once

#include <drover/job_submit.h>

struct lua_State;

namespace drover::jslua {

// What the table's metamethods reach the description through. A full userdata, so that the
// caller can clear it when the call returns: a script that kept job_desc in a global then gets
// a Lua error instead of touching a description the core has freed.
struct DescRef {
    const drover_job_submit_host *host;
    drover_job_desc *desc;
};

// Pushes a DescRef for (host, desc) and returns it; the caller keeps it on the stack for the
// call and clears both pointers afterwards.
DescRef *push_desc_ref(lua_State *L, const drover_job_submit_host *host, drover_job_desc *desc);

// Pushes the job_desc table for the DescRef at ref_index. Reading a field gives a number, a
// string or nil (unset or unknown); writing one sets it through the host, with Slurm's leniency
// (a numeric string for a number, a number for a string, "" to unset a string); an unknown or
// read-only field, or a value that fits neither kind, raises a Lua error naming the field.
// pairs(job_desc) lists the fields that are set.
void push_job_desc(lua_State *L, int ref_index);

} // namespace drover::jslua
