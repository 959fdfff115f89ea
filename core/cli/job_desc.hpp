// job_desc.hpp - the allocation a JobDesc asks for, from sbatch's request or srun's and salloc's
// (both name these members alike), so that a new request field is set in one place.
#pragma once

#include "proto/message_generated.h"

namespace drover::cli {

template <class Request>
void set_allocation(proto::JobDescT &d, const Request &r) {
    d.partition = r.partition;
    d.account = r.account;
    d.comment = r.comment;
    d.qos = r.qos;
    d.gres = r.gres;
    d.constraint = r.constraint;
    d.req_nodes = r.req_nodes;
    d.exc_nodes = r.exc_nodes;
    d.min_nodes = r.min_nodes;
    d.max_nodes = r.max_nodes;
    d.num_tasks = r.num_tasks;
    d.cpus_per_task = r.cpus_per_task;
    d.ntasks_per_node = r.ntasks_per_node;
    d.mem_per_node_mb = r.mem_per_node_mb;
    d.mem_per_cpu_mb = r.mem_per_cpu_mb;
    d.time_limit_min = r.time_limit_min;
    d.gpus = r.gpus;
    d.gpus_per_node = r.gpus_per_node;
    d.gpus_per_task = r.gpus_per_task;
    d.exclusive = r.exclusive;
    d.hold = r.hold;
    d.overcommit = r.overcommit;
    d.licenses = r.licenses;
    d.reservation = r.reservation;
    d.test_only = r.test_only;
    d.dependency = r.dependency;
    d.min_cpus_per_node = r.min_cpus_per_node;
    d.tmp_disk_mb = r.tmp_disk_mb;
}

} // namespace drover::cli
