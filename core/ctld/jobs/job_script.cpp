// job_script.cpp - the stored submission of a batch job, and scontrol write batch_script.
#include "ctld/jobs/job_script.hpp"

#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/privacy.hpp"
#include "proto/frame.hpp"
#include "state/store.hpp"

namespace drover::ctld {

const proto::Message *stored_submission(std::span<const uint8_t> rec) {
    const proto::Message *m = nullptr;
    if (proto::verify_message(rec, proto::Body::JobSubmitRequest, &m).empty()) return m;
    flatbuffers::Verifier v(rec.data(), rec.size(), 64, 50'000'000);
    if (!v.VerifyBuffer<proto::Envelope>(nullptr)) return nullptr;
    const auto *body = flatbuffers::GetRoot<proto::Envelope>(rec.data())->body();
    if (!body ||
        !proto::verify_message({body->data(), body->size()}, proto::Body::JobSubmitRequest, &m)
             .empty())
        return nullptr;
    return m;
}

const proto::JobDesc *stored_desc(const state::Store &store, const Job &job,
                                  std::optional<std::vector<uint8_t>> &rec) {
    rec = store.get(state::Table::Scripts,
                    state::job_key(job.array_job_id ? job.array_job_id : job.id));
    const proto::Message *m = rec ? stored_submission(*rec) : nullptr;
    const proto::JobSubmitRequest *sub = m ? m->body_as_JobSubmitRequest() : nullptr;
    return sub ? sub->desc() : nullptr;
}

std::vector<uint8_t> current_submission(const proto::JobDesc &d, const Job &job) {
    proto::JobDescT desc;
    d.UnPackTo(&desc);
    codec::to_desc(job, desc); // time limit, comment, features, account, QOS, ...
    desc.name = job.name;
    desc.partition = job.partition;
    desc.min_nodes = job.min_nodes;
    desc.max_nodes = job.max_nodes == DROVER_INFINITE ? 0 : job.max_nodes;
    desc.nice = job.nice;
    desc.requeue = job.requeue ? 1 : 0;
    desc.begin_time = job.eligible_time;
    desc.dependency.clear(); // met: copies are sent only then
    desc.hold = false;
    flatbuffers::FlatBufferBuilder fbb(1024 + desc.script.size());
    auto body = proto::CreateJobSubmitRequest(fbb, proto::JobDesc::Pack(fbb, &desc));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobSubmitRequest, body.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// The script of a batch job, for its owner or an administrator (as Slurm's: PrivateData aside,
// nobody else's script is shown).
void JobManager::on_script(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    const Job *job = find(req->msg->body_as_JobScriptRequest()->job_id());
    if (!job || (!ctx_.is_admin(req->peer.uid) && job->uid != req->peer.uid))
        return resp->error(DROVER_ENOENT, kInvalidJobId);
    if (job->interactive) return resp->error(DROVER_EINVAL, "Job does not have a batch script");
    std::optional<std::vector<uint8_t>> rec;
    const proto::JobDesc *d = stored_desc(ctx_.store, *job, rec);
    if (!d || !d->script()) return resp->error(DROVER_ENOENT, "Job script record lost");
    flatbuffers::FlatBufferBuilder fbb(256 + d->script()->size());
    auto script = fbb.CreateString(d->script());
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobScriptResponse,
                                    proto::CreateJobScriptResponse(fbb, script).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace drover::ctld
