// sbatch_desc.cpp - the JobDesc an sbatch request sends (sbatch, and drover-restd's job/submit).
#include "cli/job_desc.hpp"
#include "cli/sbatch_opts.hpp"

namespace drover::cli {

flatbuffers::Offset<proto::JobDesc> sbatch_job_desc(flatbuffers::FlatBufferBuilder &fbb,
                                                    const SbatchRequest &r,
                                                    const SbatchContext &ctx) {
    proto::JobDescT d;
    set_allocation(d, r);
    d.name = r.name;
    d.interactive = r.interactive;
    if (!r.interactive) d.script = r.script;
    for (const auto &[key, value] : r.environment) {
        d.environment.push_back(std::make_unique<proto::KeyValueT>());
        d.environment.back()->key = key;
        d.environment.back()->value = value;
    }
    d.argv = r.argv;
    d.work_dir = r.work_dir;
    d.std_out = r.std_out;
    d.std_err = r.std_err;
    d.std_in = r.std_in;
    d.submit_host = ctx.hostname;
    d.uid = ctx.uid;
    d.gid = ctx.gid;
    d.open_mode_append = r.open_mode_append;
    d.command = r.command;
    d.begin_time = r.begin_time;
    d.contiguous = r.contiguous;
    d.oversubscribe = r.oversubscribe;
    d.nice = r.nice;
    d.array = r.array;
    d.requeue = r.requeue;
    d.signal = r.signal;
    d.gpu_bind = r.gpu_bind;
    d.deadline = r.deadline;
    d.kill_on_invalid_dep = r.kill_on_invalid_dep;
    // In a federation the origin sends sibling jobs only to these members.
    if (r.clusters_given) d.clusters = r.clusters;
    if (r.cluster_constraint) d.cluster_features = *r.cluster_constraint;
    return proto::JobDesc::Pack(fbb, &d);
}

flatbuffers::Offset<proto::JobSubmitRequest>
sbatch_submit_request(flatbuffers::FlatBufferBuilder &fbb, const SbatchRequest &r,
                      const SbatchContext &ctx) {
    auto desc = sbatch_job_desc(fbb, r, ctx);
    std::vector<flatbuffers::Offset<proto::JobDesc>> het;
    for (const auto &c : r.het) het.push_back(sbatch_job_desc(fbb, c, ctx));
    return proto::CreateJobSubmitRequest(fbb, desc, het.empty() ? 0 : fbb.CreateVector(het));
}

} // namespace drover::cli
